import { objectOr } from '../providers/deep-merge.ts';
import type { EnvScope } from '../scope.ts';
import { BUILT_IN_LAYOUT_HTML } from './built-in.ts';
import { resolveLayout } from './lookup.ts';
import type { StoredLayout } from './model.ts';
import { getDefaultLayoutId, getLayout } from './repository.ts';
import type { LayoutEmailControls } from './schemas.ts';

// Which layout an email step is sent in (the reference's order): a per-trigger override first
// (`overrides.steps[<step _id or stepId>].layoutId`, then `overrides.channels.email.layoutId`,
// then the older `overrides.layoutIdentifier`), else the step's `layoutId`. null is no layout;
// omitted is the environment's default layout, or the built-in one in an environment made before
// layouts existed, which has none; a layout that cannot be found fails the step.

export type LayoutChoice =
  | { kind: 'none' }
  | { kind: 'built-in'; email: LayoutEmailControls }
  | { kind: 'layout'; name: string; layoutId: string; dbId: string; isTranslationEnabled: boolean; email?: LayoutEmailControls }
  | { kind: 'missing'; layoutId: string };

/** The trigger's override: a layout reference, null (none), or undefined (the step decides). */
function overrideOf(overrides: Record<string, unknown>, step: { _id: string; stepId: string }): string | null | undefined {
  const steps = objectOr(overrides.steps);
  for (const key of [step._id, step.stepId]) {
    const layoutId = objectOr(steps[key]).layoutId;
    if (layoutId !== undefined) return layoutId as string | null;
  }
  const channel = objectOr(objectOr(overrides.channels).email).layoutId;
  if (channel !== undefined) return channel as string | null;
  const identifier = overrides.layoutIdentifier;
  return typeof identifier === 'string' && identifier !== '' ? identifier : undefined;
}

const chosenLayout = (layout: StoredLayout): LayoutChoice => ({
  kind: 'layout',
  name: layout.name,
  layoutId: layout.layoutId,
  dbId: layout._id,
  isTranslationEnabled: layout.isTranslationEnabled,
  email: layout.controlValues?.email,
});

const BUILT_IN: LayoutChoice = { kind: 'built-in', email: { body: BUILT_IN_LAYOUT_HTML, editorType: 'html' } };

export async function chooseLayout(
  scope: EnvScope,
  step: { _id: string; stepId: string; controlValues: Record<string, unknown> },
  overrides: Record<string, unknown>,
): Promise<LayoutChoice> {
  const override = overrideOf(overrides, step);
  // An empty override string falls through to the step's value, as in the reference.
  const chosen = override || (override === null ? null : step.controlValues.layoutId);
  if (chosen === null) return { kind: 'none' };
  if (typeof chosen !== 'string' || chosen === '') {
    const defaultId = await getDefaultLayoutId(scope);
    const layout = defaultId === undefined ? undefined : await getLayout(scope, defaultId);
    return layout ? chosenLayout(layout) : BUILT_IN;
  }
  const layout = await resolveLayout(scope, chosen);
  if (!layout) return { kind: 'missing', layoutId: chosen };
  return chosenLayout(layout);
}
