import { BadRequestError, NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { isCritical } from '../workflows/model.ts';
import { findWorkflow, type VersionedWorkflow } from '../workflows/repository.ts';
import { getSubscriberPreferences } from './get.ts';
import { updateChoice } from './repository.ts';
import type { PatchPreferencesInput, SubscriberPreferences } from './schemas.ts';

/**
 * Changes a subscriber's global preferences (channels, schedule) or those of one workflow; only
 * the channels sent change. Returns the preferences as GET shows them.
 */
export async function updateSubscriberPreferences(
  scope: EnvScope,
  subscriberId: string,
  input: PatchPreferencesInput,
): Promise<SubscriberPreferences> {
  await assertSubscriber(scope, subscriberId);
  if (input.workflowId === undefined) {
    await updateChoice(
      scope,
      subscriberId,
      { kind: 'global' },
      {
        ...(input.channels && { channels: input.channels }),
        ...(input.schedule && { schedule: input.schedule }),
      },
    );
  } else {
    const workflow = await changeableWorkflow(scope, input.workflowId);
    await updateChoice(
      scope,
      subscriberId,
      { kind: 'workflow', workflowDbId: workflow._id },
      {
        ...(input.channels && { channels: input.channels }),
      },
    );
  }
  return getSubscriberPreferences(scope, subscriberId, 'nonCritical');
}

/** 404 unless the environment has the subscriber (before any preference of it is written). */
export async function assertSubscriber(scope: EnvScope, subscriberId: string): Promise<void> {
  if (!(await getSubscriber(scope, subscriberId))) {
    throw new NotFoundError(`Subscriber with id: ${subscriberId} not found`);
  }
}

/** The workflow (workflowId or database id) whose preferences a subscriber may change: 404 unknown, 400 critical. */
export async function changeableWorkflow(scope: EnvScope, ref: string): Promise<VersionedWorkflow> {
  const workflow = await findWorkflow(scope, ref);
  if (!workflow) throw new NotFoundError(`Workflow with id: ${ref} not found`);
  // A critical workflow's delivery does not depend on the subscriber; a stored choice would mislead.
  if (isCritical(workflow)) throw new BadRequestError(`Workflow ${ref} is critical; its preferences cannot be changed`);
  return workflow;
}
