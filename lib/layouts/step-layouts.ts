import type { EnvScope } from '../scope.ts';
import { resolveLayout } from './lookup.ts';
import { getLayout } from './repository.ts';
import { layoutNamedBy, layoutsUsedBy } from './uses.ts';

// The layouts email steps name, as workflows are written and shown. A step may name a layout by
// identifier, database id or slug; it is stored by identifier, so a step keeps naming its layout
// whatever the layout is renamed to, and the layout's use items (uses.ts) are keyed the same way.
// A step naming no layout of the environment is saved as sent and shows an issue (issues.ts).

interface StepLike {
  type: string;
  controlValues: Record<string, unknown>;
}

/** The steps with each email step's `layoutId` replaced by the identifier of the layout it names, if any. */
export async function withLayoutIdentifiers<S extends StepLike>(scope: EnvScope, steps: S[]): Promise<S[]> {
  return Promise.all(
    steps.map(async (step) => {
      const ref = layoutNamedBy(step);
      if (ref === undefined) return step;
      const layout = await resolveLayout(scope, ref);
      return layout && layout.layoutId !== ref ? { ...step, controlValues: { ...step.controlValues, layoutId: layout.layoutId } } : step;
    }),
  );
}

/** Of the layouts the workflows' email steps name, those the environment has. */
export async function existingLayouts(scope: EnvScope, workflows: readonly { steps: readonly StepLike[] }[]): Promise<Set<string>> {
  const named = new Set(workflows.flatMap((workflow) => layoutsUsedBy(workflow)));
  const found = await Promise.all([...named].map(async (layoutId) => ((await getLayout(scope, layoutId)) ? layoutId : undefined)));
  return new Set(found.filter((layoutId): layoutId is string => layoutId !== undefined));
}
