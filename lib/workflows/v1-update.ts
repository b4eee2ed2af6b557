import type { Caller } from '../auth/caller.ts';
import { BadRequestError } from '../errors.ts';
import { updatedWorkflow } from './build.ts';
import { changeWorkflow } from './change.ts';
import { requireNotificationGroup } from './notification-group.ts';
import type { UpdateV1WorkflowInput } from './v1-schemas.ts';
import { requireV1Workflow } from './v1-lookup.ts';
import { v1UserPreferences } from './v1-preferences.ts';
import { loadTemplates } from './templates.ts';
import { readV1Steps } from './v1-steps.ts';
import { toV1Workflow, type V1Workflow } from './v1-view.ts';
import { withLayoutIdentifiers } from '../layouts/step-layouts.ts';

// PUT through the v1 API: the v1 fields sent, mapped onto the stored workflow and written by the
// one change of a workflow (change.ts). `steps` replaces every step; `identifier` the trigger
// identifier, 409 when another workflow has it; `active` is not one of them: the status route
// (v1-status.ts) switches a workflow on or off.

const UPDATABLE = [
  'name',
  'tags',
  'description',
  'identifier',
  'steps',
  'notificationGroupId',
  'critical',
  'preferenceSettings',
  'data',
] as const;

export async function updateV1Workflow(caller: Caller, templateId: string, input: UpdateV1WorkflowInput): Promise<V1Workflow> {
  if (!UPDATABLE.some((field) => input[field] !== undefined)) throw new BadRequestError('No properties found for update');
  if (input.notificationGroupId !== undefined) requireNotificationGroup(caller, input.notificationGroupId);
  if (input.steps !== undefined) await loadTemplates();
  const saved = await changeWorkflow(
    caller,
    templateId,
    async (current) => ({
      ...updatedWorkflow(
        current,
        {
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.tags !== undefined && { tags: input.tags }),
          ...(input.steps !== undefined && { steps: await withLayoutIdentifiers(caller, readV1Steps(input.steps, current.steps)) }),
        },
        caller.userId,
      ),
      userPreferences: v1UserPreferences(current, input),
      ...(input.data !== undefined && { data: input.data }),
      workflowId: input.identifier ?? current.workflowId,
    }),
    requireV1Workflow,
  );
  return toV1Workflow(saved);
}
