import type { Caller } from '../auth/caller.ts';
import { ConflictError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { copyLayoutTranslations } from '../translations/layout-translations.ts';
import { addLayout } from './add.ts';
import type { StoredLayout } from './model.ts';
import { getLayout, updateLayout } from './repository.ts';
import { layoutsUsedBy, type LayoutUser } from './uses.ts';

// Workflow sync brings the layouts the workflow's email steps name into the target environment
// first (the reference's LayoutSyncToEnvironmentUseCase): matched by identifier, created or
// updated with the source's name, translation switch and content, and its translations replace
// the target's. `isDefault` is not copied: a layout created in the target becomes its default
// only if the target has none.

export async function syncLayoutsOf(source: EnvScope, workflow: Pick<LayoutUser, 'steps'>, target: Caller): Promise<void> {
  for (const layoutId of layoutsUsedBy(workflow)) {
    const layout = await getLayout(source, layoutId);
    if (!layout) continue; // the step names no layout of the source (an issue there): nothing to bring
    const copy = await upsertInTarget(layout, target);
    await copyLayoutTranslations({ scope: source, layout }, { scope: target, layout: copy });
  }
}

async function upsertInTarget(layout: StoredLayout, target: Caller): Promise<StoredLayout> {
  const { layoutId } = layout;
  const content = {
    name: layout.name,
    isTranslationEnabled: layout.isTranslationEnabled,
    controlValues: structuredClone(layout.controlValues),
  };
  const update = () =>
    updateLayout(target, layoutId, { ...content, updatedAt: new Date().toISOString(), updatedBy: { _id: target.userId } });
  // The update is conditioned on the layout existing: no read first to find out.
  const existing = await update();
  if (existing) return existing;
  try {
    return await addLayout(target, { layoutId, ...content });
  } catch (error) {
    // Made in the target meanwhile: update that one.
    const updated = error instanceof ConflictError ? await update() : undefined;
    if (!updated) throw error;
    return updated;
  }
}
