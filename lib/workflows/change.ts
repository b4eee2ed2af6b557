import type { Caller } from '../auth/caller.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { forgetWorkflowTranslations } from '../translations/workflow-translations.ts';
import { updatedWorkflow, type WorkflowChanges } from './build.ts';
import { viewContext } from './environment-channels.ts';
import { requireWorkflow } from './lookup.ts';
import { assertPayloadSchema } from './payload-schema.ts';
import { saveWorkflow } from './repository.ts';
import type { WorkflowResponse } from './schemas.ts';
import { toWorkflowResponse } from './view.ts';

// A change of a stored workflow, shared by PUT (update.ts, which replaces the steps) and PATCH
// (patch.ts, which never sends steps): the fields sent replace the stored ones, steps are matched
// by stepId (so kept steps keep their ids; build.ts `updatedWorkflow`). Written conditioned on the
// version read.

export async function changeWorkflow(caller: Caller, ref: string, input: WorkflowChanges): Promise<WorkflowResponse> {
  await assertPayloadSchema(input.payloadSchema);
  let translated = false;
  const saved = await retryOnStaleWrite(async () => {
    const current = await requireWorkflow(caller, ref);
    translated = current.isTranslationEnabled;
    const { version: _version, ...workflow } = current;
    return saveWorkflow(updatedWorkflow(workflow, input, caller.userId), current);
  });
  // Turning translations off deletes them, as the reference's "disable and delete" does.
  if (translated && !saved.isTranslationEnabled) await forgetWorkflowTranslations(caller, saved);
  return toWorkflowResponse(saved, await viewContext(caller, [saved]));
}
