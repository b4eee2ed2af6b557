import type { Caller } from '../auth/caller.ts';
import { ValidationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { sentFields } from '../sent-fields.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type StoredStep, type StoredWorkflow, type WorkflowPreferences } from './model.ts';
import type { CreateWorkflowInput, PreferencesInput, StepInput, UpdateWorkflowInput } from './schemas.ts';
import { slugify, stepSlug, workflowSlug } from './slug.ts';

// From what an author sends to a stored workflow (new, or a change of a stored one), its steps
// and preferences. Steps are matched to
// the ones already stored by stepId (or by _id), and a matched step keeps its database id, so what
// refers to a step (subscriber data, jobs) keeps pointing at it; stored steps not sent are
// dropped. Steps come with their templates read (templates.ts `readSteps`, or a synced step's
// source readings), so this module, and sync through it, does not bundle the template engine.

/** What a v1 step sets that a v2 step cannot: sent whole with every v1 step (v1-steps.ts). */
export type LegacyStepFields = Pick<StoredStep, 'active' | 'filters' | 'shouldStopOnFail' | 'replyCallback'>;

/**
 * A step as sent, with the readings of its templates. `legacy` (v1 steps) replaces the matched
 * step's legacy fields, as a v1 update replaces a step whole; v2 steps keep the matched step's.
 */
export type ReadStep = StepInput & Pick<StoredStep, 'templateReadings'> & { legacy?: LegacyStepFields };
/** A workflow as sent, its steps read. */
export type ReadWorkflowInput = Omit<CreateWorkflowInput, 'steps'> & { steps: ReadStep[] };

/** The step's stepId: the one sent, else its slugified name. */
export const stepIdOf = (step: Pick<StepInput, 'stepId' | 'name'>) => step.stepId ?? (slugify(step.name) || 'step');

export function buildSteps(inputs: readonly ReadStep[], existing: readonly StoredStep[] = []): StoredStep[] {
  const seen = new Map<string, number>();
  inputs.forEach((input, index) => {
    const stepId = stepIdOf(input);
    if (seen.has(stepId)) {
      throw ValidationError.forField(
        `steps.${index}.stepId`,
        `stepId ${stepId} is already used by step ${seen.get(stepId)} (stepId defaults to the slugified name)`,
        input.stepId ?? input.name,
      );
    }
    seen.set(stepId, index);
  });

  return inputs.map((input) => {
    const stepId = stepIdOf(input);
    const match =
      existing.find((step) => step.stepId === stepId) ??
      (input._id === undefined ? undefined : existing.find((step) => step._id === input._id));
    // A step that changes kind is a new step: its old id named controls of another shape.
    const _id = match && match.type === input.type ? match._id : newId();
    const legacy = input.legacy ?? {
      active: match?.active ?? true,
      filters: match?.filters,
      shouldStopOnFail: match?.shouldStopOnFail,
      replyCallback: match?.replyCallback,
    };
    return {
      _id,
      stepId,
      name: input.name,
      slug: stepSlug(input.name, _id),
      type: input.type,
      active: legacy.active,
      controlValues: input.controlValues,
      templateReadings: input.templateReadings,
      ...(legacy.filters && legacy.filters.length > 0 && { filters: legacy.filters }),
      ...(legacy.shouldStopOnFail !== undefined && { shouldStopOnFail: legacy.shouldStopOnFail }),
      ...(legacy.replyCallback && { replyCallback: legacy.replyCallback }),
      // A code-first step keeps what its code declared; only a sync changes that (lib/bridge/sync.ts).
      ...(match?.bridge && _id === match._id && { bridge: match.bridge }),
    };
  });
}

/** The author's preferences completed from the defaults; null means "none". */
export function buildUserPreferences(input: PreferencesInput | null): WorkflowPreferences | null {
  if (input === null) return null;
  const base = DEFAULT_WORKFLOW_PREFERENCES;
  return {
    all: { ...base.all, ...input.all },
    channels: { ...base.channels, ...input.channels },
  } as WorkflowPreferences;
}

/** A new workflow in the caller's environment (not yet saved), from what its author sent. */
export function newWorkflow(caller: Caller, input: ReadWorkflowInput, origin: StoredWorkflow['origin'] = 'svc-cloud'): StoredWorkflow {
  const now = new Date().toISOString();
  const _id = newId(Date.parse(now));
  return {
    _id,
    _organizationId: caller.organizationId,
    _environmentId: caller.environmentId,
    workflowId: input.workflowId ?? (slugify(input.name) || _id),
    slug: workflowSlug(input.name, _id),
    name: input.name,
    ...(input.description !== undefined && { description: input.description }),
    tags: input.tags ?? [],
    active: input.active ?? false,
    validatePayload: input.validatePayload ?? false,
    payloadSchema: input.payloadSchema ?? null,
    isTranslationEnabled: input.isTranslationEnabled ?? false,
    severity: input.severity ?? 'none',
    origin,
    steps: buildSteps(input.steps),
    defaultPreferences: DEFAULT_WORKFLOW_PREFERENCES,
    userPreferences: buildUserPreferences(input.preferences?.user ?? null),
    createdAt: now,
    updatedAt: now,
    updatedBy: { _id: caller.userId },
    lastPublishedAt: null,
    lastTriggeredAt: null,
  };
}

/** What a change sends (v2 PUT or PATCH, a v1 update), steps already read (templates.ts `readSteps`). */
export type WorkflowChanges = Partial<Omit<UpdateWorkflowInput, 'steps'>> & { steps?: ReadStep[] };

/** The workflow with the fields sent replacing the stored ones; steps matched as `buildSteps` does. */
export function updatedWorkflow(current: StoredWorkflow, input: WorkflowChanges, userId: string): StoredWorkflow {
  const name = input.name ?? current.name;
  return {
    ...current,
    name,
    slug: workflowSlug(name, current._id),
    ...sentFields(input, ['description', 'tags', 'active', 'validatePayload', 'payloadSchema', 'isTranslationEnabled', 'severity']),
    ...(input.preferences?.user !== undefined && { userPreferences: buildUserPreferences(input.preferences.user) }),
    ...(input.steps !== undefined && { steps: buildSteps(input.steps, current.steps) }),
    updatedAt: new Date().toISOString(),
    updatedBy: { _id: userId },
  };
}
