import type { Caller } from '../auth/caller.ts';
import { newId } from '../ids.ts';
import { buildSteps, buildUserPreferences } from './build.ts';
import { viewContext } from './environment-channels.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type StoredWorkflow } from './model.ts';
import { saveWorkflow } from './repository.ts';
import type { CreateWorkflowInput, WorkflowResponse } from './schemas.ts';
import { slugify, workflowSlug } from './slug.ts';
import { toWorkflowResponse } from './view.ts';

/** A new workflow in the caller's environment; its workflowId (default: the slugified name) must be free (409). */
export async function createWorkflow(caller: Caller, input: CreateWorkflowInput): Promise<WorkflowResponse> {
  const saved = await saveWorkflow(newWorkflow(caller, input));
  return toWorkflowResponse(saved, await viewContext(caller, [saved]));
}

export function newWorkflow(caller: Caller, input: CreateWorkflowInput, origin: StoredWorkflow['origin'] = 'svc-cloud'): StoredWorkflow {
  const _id = newId();
  const now = new Date().toISOString();
  return {
    _id,
    _organizationId: caller.organizationId,
    _environmentId: caller.environmentId,
    workflowId: input.workflowId ?? (slugify(input.name) || _id),
    slug: workflowSlug(input.name, _id),
    name: input.name,
    ...(input.description !== undefined && { description: input.description }),
    tags: input.tags ?? [],
    active: input.active ?? false,
    validatePayload: input.validatePayload ?? false,
    payloadSchema: input.payloadSchema ?? null,
    isTranslationEnabled: input.isTranslationEnabled ?? false,
    severity: input.severity ?? 'none',
    origin,
    steps: buildSteps(input.steps),
    defaultPreferences: DEFAULT_WORKFLOW_PREFERENCES,
    userPreferences: buildUserPreferences(input.preferences?.user ?? null),
    createdAt: now,
    updatedAt: now,
    updatedBy: { _id: caller.userId },
    lastPublishedAt: null,
    lastTriggeredAt: null,
  };
}
