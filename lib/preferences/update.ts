import { BadRequestError, NotFoundError } from '../errors.ts';
import type { EnvScope } from '../store/keys.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { isCritical } from '../workflows/model.ts';
import { findWorkflow } from '../workflows/repository.ts';
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
  if (!(await getSubscriber(scope, subscriberId))) {
    throw new NotFoundError(`Subscriber with id: ${subscriberId} not found`);
  }
  if (input.workflowId === undefined) {
    await updateChoice(scope, subscriberId, { kind: 'global' }, {
      ...(input.channels && { channels: input.channels }),
      ...(input.schedule && { schedule: input.schedule }),
    });
  } else {
    const workflow = await findWorkflow(scope, input.workflowId);
    if (!workflow) throw new NotFoundError(`Workflow with id: ${input.workflowId} not found`);
    // A critical workflow's delivery does not depend on the subscriber; a stored choice would mislead.
    if (isCritical(workflow)) throw new BadRequestError(`Workflow ${input.workflowId} is critical; its preferences cannot be changed`);
    await updateChoice(scope, subscriberId, { kind: 'workflow', workflowDbId: workflow._id }, {
      ...(input.channels && { channels: input.channels }),
    });
  }
  return getSubscriberPreferences(scope, subscriberId, 'nonCritical');
}
