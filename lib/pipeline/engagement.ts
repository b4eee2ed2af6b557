import type { StoredMessage } from '../messages/model.ts';
import { getMessage, getMessagesOfSubscriber } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
import { ENGAGEMENT_EVENTS, type EngagementEvent } from '../workflows/engagement-events.ts';
import type { StoredJob, StoredNotification } from './model.ts';

// What a subscriber did with the message of an earlier step, as later steps' conditions and the
// engagement-waiting delay see it (docs/engagement.md, "Steps that depend on engagement"). Read
// from the message item alone: in-app `seen`/`read`, and `opened`/`clicked` (the first open's and
// click's times, set once by tracking); an email's provider receipt saying opened or clicked
// counts as well, since some providers track opens themselves.

export { ENGAGEMENT_EVENTS, type EngagementEvent };

/** A message item with the tracking attributes (written by link and open tracking when they happen). */
export type EngagedMessage = StoredMessage & { opened?: string; clicked?: string; clickCount?: number };

export interface Engagement {
  seen: boolean;
  read: boolean;
  opened: boolean;
  clicked: boolean;
  delivered: boolean;
}

export function engagementOf(message: EngagedMessage): Engagement {
  const receipt = message.deliveryStatus;
  const clicked = Boolean(message.clicked) || receipt === 'clicked';
  const opened = Boolean(message.opened) || clicked || receipt === 'opened';
  return {
    seen: message.seen === true,
    read: message.read === true,
    opened,
    clicked,
    // In-app messages are delivered when made; others when a receipt said so (or an open proves it).
    delivered: message.channel === 'in_app' || receipt === 'delivered' || opened,
  };
}

export const happened = (message: EngagedMessage, event: EngagementEvent): boolean => engagementOf(message)[event];

/** The earlier job of `step` (its author's id or database id) in the notification, if one ran before `job`. */
export function earlierJob(notification: StoredNotification, job: StoredJob, step: string): StoredJob | undefined {
  return notification.jobs.slice(0, job.index).find((j) => j.stepId === step || j.stepDbId === step);
}

export type StepEngagement = Engagement & { messageId: string; channel: string };

/**
 * What the earlier steps' messages say, by step (its author's id and its database id; only steps
 * that made a message). One BatchGet.
 */
export async function earlierEngagement(
  scope: EnvScope,
  notification: StoredNotification,
  job: StoredJob,
): Promise<Record<string, StepEngagement>> {
  const earlier = notification.jobs.slice(0, job.index).filter((j) => j.messageId);
  if (earlier.length === 0) return {};
  const messages = await getMessagesOfSubscriber(
    scope,
    notification.subscriberId,
    earlier.map((j) => j.messageId!),
  );
  const byId = new Map(messages.map((m) => [m._id, m]));
  const found: Record<string, StepEngagement> = {};
  for (const j of earlier) {
    const message = byId.get(j.messageId!);
    if (message) found[j.stepId] = found[j.stepDbId] = { ...engagementOf(message), messageId: message._id, channel: message.channel };
  }
  return found;
}

/** Whether the message a waiting delay watches has had `event` (read consistently: a wake follows the change). */
export async function hasHappened(scope: EnvScope, subscriberId: string, messageId: string, event: EngagementEvent): Promise<boolean> {
  const message = await getMessage(scope, subscriberId, messageId);
  return message !== undefined && happened(message, event);
}
