import type { Caller } from '../auth/caller.ts';
import { changeWorkflow } from './change.ts';
import type { UpdateWorkflowInput, WorkflowResponse } from './schemas.ts';
import { readSteps } from './templates.ts';

/** PUT: the steps sent replace the stored ones (matched by stepId), other fields sent replace theirs. */
export function updateWorkflow(caller: Caller, ref: string, input: UpdateWorkflowInput): Promise<WorkflowResponse> {
  return changeWorkflow(caller, ref, { ...input, steps: readSteps(input.steps) });
}
