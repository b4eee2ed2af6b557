import type { Caller } from '../auth/caller.ts';
import { updatedWorkflow, type WorkflowChanges } from './build.ts';
import { changeWorkflow } from './change.ts';
import { viewContext } from './environment-channels.ts';
import { assertPayloadSchema } from './payload-schema.ts';
import type { WorkflowResponse } from './schemas.ts';
import { toWorkflowResponse } from './view.ts';

/**
 * PATCH: only the fields sent change; the steps stay as stored (with their template readings).
 * PUT (update.ts) comes here too, with its steps read: steps are matched by stepId, so kept steps
 * keep their ids (build.ts `updatedWorkflow`).
 */
export async function patchWorkflow(caller: Caller, ref: string, input: WorkflowChanges): Promise<WorkflowResponse> {
  await assertPayloadSchema(input.payloadSchema);
  const saved = await changeWorkflow(caller, ref, (current) => updatedWorkflow(current, input, caller.userId));
  return toWorkflowResponse(saved, await viewContext(caller, [saved]));
}
