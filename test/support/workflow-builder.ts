import { newId } from '#lib/ids.ts';
import type { EnvScope } from '#lib/scope.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type StepType, type StoredStep, type StoredWorkflow } from '#lib/workflows/model.ts';
import { saveWorkflow } from '#lib/workflows/repository.ts';
import { loadTemplates, readTemplates } from '#lib/workflows/templates.ts';

// Stored workflows: in memory for unit tests of the pure workflow logic, or saved directly for
// tests of what reads workflows (preferences, the pipeline) that should not depend on the
// workflow API's validation. Their templates are read as the API reads them when a step is saved,
// with the template engine (a lazy package) loaded first.
await loadTemplates();

export function step(type: StepType, controlValues: Record<string, unknown> = {}, stepId: string = type): StoredStep {
  const _id = newId();
  const templateReadings = readTemplates(controlValues);
  return { _id, stepId, name: stepId, slug: `${stepId}_st_x`, type, active: true, controlValues, templateReadings };
}

export function workflow(steps: StoredStep[], extra: Partial<StoredWorkflow> = {}): StoredWorkflow {
  const _id = newId();
  return {
    _id,
    _organizationId: 'org',
    _environmentId: 'env',
    workflowId: 'wf',
    slug: `wf_wf_${_id}`,
    name: 'Workflow',
    tags: [],
    active: true,
    validatePayload: false,
    payloadSchema: null,
    isTranslationEnabled: false,
    severity: 'none',
    origin: 'svc-cloud',
    steps,
    defaultPreferences: DEFAULT_WORKFLOW_PREFERENCES,
    userPreferences: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

export interface WorkflowSeed extends Partial<Omit<StoredWorkflow, 'steps'>> {
  steps?: { type: StepType; active?: boolean }[];
}

export function seedWorkflow(scope: EnvScope, seed: WorkflowSeed = {}): Promise<StoredWorkflow> {
  const { steps = [{ type: 'in_app' }], ...extra } = seed;
  const built = workflow(
    steps.map((s, i) => ({ ...step(s.type, {}, `step-${i}`), active: s.active ?? true })),
    { _organizationId: scope.organizationId, _environmentId: scope.environmentId, ...extra },
  );
  return saveWorkflow({ ...built, workflowId: extra.workflowId ?? `wf-${built._id}` });
}
