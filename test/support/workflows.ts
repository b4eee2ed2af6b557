import { newId } from '#lib/ids.ts';
import type { EnvScope } from '#lib/store/keys.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type StepType, type StoredWorkflow } from '#lib/workflows/model.ts';
import { saveWorkflow } from '#lib/workflows/repository.ts';

// Stores a workflow directly, for tests of what reads workflows (preferences, the pipeline)
// that should not depend on the workflow API's validation.

export interface WorkflowSeed extends Partial<Omit<StoredWorkflow, 'steps'>> {
  steps?: { type: StepType; active?: boolean }[];
}

export async function seedWorkflow(scope: EnvScope, seed: WorkflowSeed = {}): Promise<StoredWorkflow> {
  const _id = newId();
  const now = new Date().toISOString();
  const name = seed.name ?? `Workflow ${_id}`;
  const { steps = [{ type: 'in_app' }], ...rest } = seed;
  const workflow: StoredWorkflow = {
    _id,
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    workflowId: `wf-${_id}`,
    slug: `workflow_wf_${_id}`,
    name,
    tags: [],
    active: true,
    validatePayload: false,
    payloadSchema: null,
    isTranslationEnabled: false,
    severity: 'none',
    origin: 'svc-cloud',
    defaultPreferences: DEFAULT_WORKFLOW_PREFERENCES,
    userPreferences: null,
    createdAt: now,
    updatedAt: now,
    ...rest,
    steps: steps.map((step, i) => ({
      _id: newId(),
      stepId: `step-${i}`,
      name: `Step ${i}`,
      slug: `step-${i}_st_${i}`,
      type: step.type,
      active: step.active ?? true,
      controlValues: {},
    })),
  };
  return saveWorkflow(workflow);
}
