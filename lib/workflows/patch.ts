import type { Caller } from '../auth/caller.ts';
import { changeWorkflow } from './change.ts';
import type { PatchWorkflowInput, WorkflowResponse } from './schemas.ts';

/** PATCH: only the fields sent change; the steps stay as stored (with their template readings). */
export function patchWorkflow(caller: Caller, ref: string, input: PatchWorkflowInput): Promise<WorkflowResponse> {
  return changeWorkflow(caller, ref, input);
}
