import type { Caller } from '../auth/caller.ts';
import { forgetLayoutTranslations } from '../translations/layout-translations.ts';
import { loadTemplates } from '../workflows/templates.ts';
import { assertLayoutContent } from './content.ts';
import { layoutNotFound, requireLayout } from './lookup.ts';
import { updateLayout } from './repository.ts';
import type { LayoutResponse, UpdateLayoutInput } from './schemas.ts';
import { toLayoutResponse } from './view.ts';

/**
 * PUT: the name is replaced; `controlValues` omitted stays, null is removed, an object replaces.
 * The identifier never changes. Turning translations off deletes them, as for workflows (the
 * reference's "disable and delete").
 */
export async function changeLayout(caller: Caller, ref: string, input: UpdateLayoutInput): Promise<LayoutResponse> {
  await loadTemplates();
  assertLayoutContent(input.controlValues);
  const current = await requireLayout(caller, ref);
  const updated = await updateLayout(caller, current.layoutId, {
    name: input.name,
    isTranslationEnabled: input.isTranslationEnabled,
    controlValues: input.controlValues,
    updatedAt: new Date().toISOString(),
    updatedBy: { _id: caller.userId },
  });
  if (!updated) throw layoutNotFound(ref, caller);
  if (current.isTranslationEnabled && !updated.isTranslationEnabled) await forgetLayoutTranslations(caller, updated);
  return toLayoutResponse(updated);
}
