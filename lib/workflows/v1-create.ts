import { randomBytes } from 'node:crypto';
import type { Caller } from '../auth/caller.ts';
import { ConflictError } from '../errors.ts';
import { newWorkflow } from './build.ts';
import type { StoredWorkflow } from './model.ts';
import { requireNotificationGroup } from './notification-group.ts';
import { saveWorkflow, type VersionedWorkflow } from './repository.ts';
import { slugify } from './slug.ts';
import type { CreateV1WorkflowInput } from './v1-schemas.ts';
import { v1UserPreferences } from './v1-preferences.ts';
import { loadTemplates } from './templates.ts';
import { readV1Steps } from './v1-steps.ts';
import { toV1Workflow, type V1Workflow } from './v1-view.ts';
import { withLayoutIdentifiers } from '../layouts/step-layouts.ts';

// A workflow made through the v1 API: the same stored model as a v2 one, of origin
// `svc-cloud-v1` (so sync refuses it, as the reference's). Inactive unless `active` is sent. Its
// trigger identifier is the slugified name, with a random suffix when that is taken, as the
// reference makes it (never a 409). Everything is checked before anything is written.

const ATTEMPTS = 4;
const suffix = () => randomBytes(5).toString('hex').slice(0, 9);

export async function createV1Workflow(caller: Caller, input: CreateV1WorkflowInput): Promise<V1Workflow> {
  requireNotificationGroup(caller, input.notificationGroupId);
  await loadTemplates();
  const workflow: StoredWorkflow = {
    ...newWorkflow(
      caller,
      {
        name: input.name,
        ...(input.description !== undefined && { description: input.description }),
        ...(input.tags !== undefined && { tags: input.tags }),
        active: input.active ?? false,
        steps: await withLayoutIdentifiers(caller, readV1Steps(input.steps)),
      },
      'svc-cloud-v1',
    ),
    userPreferences: v1UserPreferences(undefined, input),
    ...(input.data !== undefined && { data: input.data }),
  };
  return toV1Workflow(await saveWithFreeIdentifier(workflow));
}

async function saveWithFreeIdentifier(workflow: StoredWorkflow): Promise<VersionedWorkflow> {
  const base = slugify(workflow.name) || workflow._id;
  for (let attempt = 1; ; attempt++) {
    try {
      return await saveWorkflow({ ...workflow, workflowId: attempt === 1 ? base : `${base}-${suffix()}` });
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= ATTEMPTS) throw error;
    }
  }
}
