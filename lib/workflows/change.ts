import { sentFields } from '../sent-fields.ts';
import type { Caller } from '../auth/caller.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { buildSteps, buildUserPreferences, type ReadStep } from './build.ts';
import { viewContext } from './environment-channels.ts';
import { requireWorkflow } from './lookup.ts';
import type { StoredWorkflow } from './model.ts';
import { assertPayloadSchema } from './payload-schema.ts';
import { saveWorkflow } from './repository.ts';
import type { UpdateWorkflowInput, WorkflowResponse } from './schemas.ts';
import { workflowSlug } from './slug.ts';
import { toWorkflowResponse } from './view.ts';

// A change of a stored workflow, shared by PUT (update.ts, which replaces the steps) and PATCH
// (patch.ts, which never sends steps): the fields sent replace the stored ones, steps are matched
// by stepId (so kept steps keep their ids). Written conditioned on the version read.

/** What PUT or PATCH sends, steps already read (templates.ts `readSteps`). */
export type WorkflowChanges = Partial<Omit<UpdateWorkflowInput, 'steps'>> & { steps?: ReadStep[] };

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

export async function changeWorkflow(caller: Caller, ref: string, input: WorkflowChanges): Promise<WorkflowResponse> {
  assertPayloadSchema(input.payloadSchema);
  const saved = await retryOnStaleWrite(async () => {
    const current = await requireWorkflow(caller, ref);
    const { version, ...workflow } = current;
    return saveWorkflow(updatedWorkflow(workflow, input, caller.userId), version);
  });
  return toWorkflowResponse(saved, await viewContext(caller, [saved]));
}
