import type { Caller } from '../auth/caller.ts';
import { BadRequestError } from '../errors.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { viewContext } from '../workflows/environment-channels.ts';
import { findStep } from '../workflows/get-step.ts';
import { checkCodeControls } from '../workflows/code-controls.ts';
import { requireWorkflow } from '../workflows/lookup.ts';
import { saveWorkflow } from '../workflows/repository.ts';
import type { WorkflowResponse } from '../workflows/schemas.ts';
import { toWorkflowResponse } from '../workflows/view.ts';

// PUT /v1/bridge/controls/{workflowId}/{stepId} (the reference's path; what the console's editor
// calls): the control values of a code-first step, checked against the control schema its code
// declares (with the schema's defaults filled in for the check only: the bridge applies them
// itself) and stored on the step. The next execute sends them as the step's `controls`; a sync
// keeps them while the step keeps its stepId and kind.

export async function storeStepControls(
  caller: Caller,
  workflowRef: string,
  stepRef: string,
  values: Record<string, unknown>,
): Promise<WorkflowResponse['steps'][number]> {
  const saved = await retryOnStaleWrite(async () => {
    const workflow = await requireWorkflow(caller, workflowRef);
    const step = findStep(workflow, stepRef);
    if (workflow.origin !== 'external' || !step.bridge) {
      throw new BadRequestError('Only steps of code-first (external) workflows take control values here: use PUT /v2/workflows');
    }
    await checkCodeControls(step.bridge.controlSchema, values, 'variables');
    const { version: _version, ...current } = workflow;
    const steps = current.steps.map((s) => (s._id === step._id ? { ...s, controlValues: values } : s));
    return saveWorkflow({ ...current, steps, updatedAt: new Date().toISOString(), updatedBy: { _id: caller.userId } }, workflow);
  });
  const view = toWorkflowResponse(saved, await viewContext(caller, [saved]));
  return view.steps.find((s) => s.stepId === stepRef || s._id === stepRef)!;
}
