import type { StoredMessage } from '../messages/model.ts';
import { scopeOfMessage } from '../messages/repository.ts';
import { findNotificationById } from '../pipeline/notification-store.ts';
import { jobMessage } from '../pipeline/queue-messages.ts';
import { cachedWorkflow } from '../pipeline/read-cache.ts';
import type { OutgoingMessage } from '../queue/send.ts';
import type { EngagementEvent } from '../workflows/engagement-events.ts';

// Waking a delay that waits for engagement as soon as it happens (lib/pipeline/steps/
// engagement-delay.ts). A message change that makes it seen, read, opened or clicked costs
// nothing more unless its workflow has a delay waiting for that event of that step (the workflow
// is read from the consumer's cache); then its notification is read and each job still waiting
// on this message is sent its job message now. The job's runner decides again from the message
// as stored, so a wake that is repeated, or comes with the timed one, moves the job only once.

interface WaitFor {
  stepId: string;
  event: EngagementEvent;
}

export async function wakesFor(message: StoredMessage, events: readonly EngagementEvent[]): Promise<OutgoingMessage[]> {
  const scope = scopeOfMessage(message);
  const workflow = await cachedWorkflow(scope, message._templateId);
  const waits = (workflow?.steps ?? []).some((step) => {
    const waitFor = step.type === 'delay' ? (step.controlValues as { waitFor?: WaitFor }).waitFor : undefined;
    return waitFor !== undefined && waitFor.stepId === message.stepId && events.includes(waitFor.event);
  });
  if (!waits) return [];
  const stored = await findNotificationById(scope, message._notificationId, { consistent: true });
  if (!stored) return [];
  const { notification } = stored;
  return notification.jobs
    .filter((job) => job.status === 'delayed' && job.engagementWait?.messageId === message._id && events.includes(job.engagementWait.event))
    .map((job) => ({
      body: jobMessage(scope, notification.transactionId, notification.subscriberId, job.index, notification.notificationShards),
    }));
}
