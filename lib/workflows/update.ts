import { sentFields } from '../sent-fields.ts';
import type { Caller } from '../auth/caller.ts';
import { buildSteps, buildUserPreferences } from './build.ts';
import { viewContext } from './environment-channels.ts';
import { requireWorkflow } from './lookup.ts';
import type { StoredWorkflow } from './model.ts';
import { saveWorkflow } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { PatchWorkflowInput, UpdateWorkflowInput, WorkflowResponse } from './schemas.ts';
import { workflowSlug } from './slug.ts';
import { toWorkflowResponse } from './view.ts';

// PUT replaces the steps (matched by stepId, so kept steps keep their ids) and the fields sent;
// PATCH changes only the fields sent. Both write conditioned on the version read.

export function updatedWorkflow(current: StoredWorkflow, input: Partial<UpdateWorkflowInput>, userId: string): StoredWorkflow {
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

async function change(caller: Caller, ref: string, input: Partial<UpdateWorkflowInput>): Promise<WorkflowResponse> {
  const saved = await retryOnStaleWrite(async () => {
    const current = await requireWorkflow(caller, ref);
    const { version, ...workflow } = current;
    return saveWorkflow(updatedWorkflow(workflow, input, caller.userId), version);
  });
  return toWorkflowResponse(saved, await viewContext(caller, [saved]));
}

export const updateWorkflow = (caller: Caller, ref: string, input: UpdateWorkflowInput) => change(caller, ref, input);
export const patchWorkflow = (caller: Caller, ref: string, input: PatchWorkflowInput) => change(caller, ref, input);
