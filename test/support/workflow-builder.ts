import { newId } from '#lib/ids.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type StepType, type StoredStep, type StoredWorkflow } from '#lib/workflows/model.ts';

// In-memory stored workflows for unit tests of the pure workflow logic.

export function step(type: StepType, controlValues: Record<string, unknown> = {}, stepId: string = type): StoredStep {
  const _id = newId();
  return { _id, stepId, name: stepId, slug: `${stepId}_st_x`, type, active: true, controlValues };
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
