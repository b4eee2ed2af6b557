import type { Caller } from '../auth/caller.ts';
import { changeWorkflow } from './change.ts';
import type { UpdateWorkflowInput, WorkflowResponse } from './schemas.ts';
import { readSteps } from './templates.ts';
import { withLayoutIdentifiers } from '../layouts/step-layouts.ts';

/** PUT: the steps sent replace the stored ones (matched by stepId), other fields sent replace theirs. */
export async function updateWorkflow(caller: Caller, ref: string, input: UpdateWorkflowInput): Promise<WorkflowResponse> {
  return changeWorkflow(caller, ref, { ...input, steps: await withLayoutIdentifiers(caller, readSteps(input.steps)) });
}
