import type { StoredMessage } from '../messages/model.ts';
import { engagementOf, ENGAGEMENT_EVENTS, type EngagedMessage, type EngagementEvent } from '../pipeline/engagement.ts';
import type { TriggerEvent } from '../pipeline/model.ts';
import { ENGAGEMENT_SOURCE_SORT_KEYS } from '../store/keys.ts';
import { isMessageChange, type StoredChange } from '../store/stream-change.ts';

// What one stored change counts, read from the item's images before and after (the table's
// stream), as the webhook events are (lib/webhooks/derive.ts): a count is a fact that turned true
// between the two images. A message counts `sent` or `failed` when it is made, `delivered`,
// `opened`, `clicked`, `read` when they first hold; a trigger counts `triggered` when stored. Each
// count names the item and the event, which the counters store once (counters.ts): a record
// handed over again, or a later change that makes a fact true a second time (read, unread, read),
// counts nothing more, nor does an item removed by DynamoDB's TTL. Pure: tested over images alone.

export const STAT_EVENTS = ['triggered', 'sent', 'delivered', 'failed', 'opened', 'clicked', 'read'] as const;
export type StatEvent = (typeof STAT_EVENTS)[number];
/** The events counted per channel (all but `triggered`, counted per workflow). */
export type ChannelStatEvent = Exclude<StatEvent, 'triggered'>;
export const CHANNEL_STAT_EVENTS = STAT_EVENTS.filter((e): e is ChannelStatEvent => e !== 'triggered');

export interface Count {
  /** The message's id, or the trigger's time and transactionId: with `event`, what is counted once. */
  itemId: string;
  /** Whose retention the marker is kept for (from `at`'s item: the message's, or the trigger's). */
  kind: 'message' | 'activity';
  /** When the counted item was made (ISO): its marker is kept from then as long as the item. */
  createdAt: string;
  event: StatEvent;
  workflowId: string;
  /** Undefined for `triggered`. */
  channel?: string;
  /** When it happened (ISO): its UTC day is the counter's. */
  at: string;
  /**
   * The fact of the same record whose marker stands for this one too (counters.ts): set on a fact
   * that only the item's creation can make true and that stays true for the item's life (an
   * in-app message is delivered when made, and its channel never changes), so that no later
   * change can count it again; it is counted once with its creation fact (`sent` or `failed`).
   */
  markedBy?: StatEvent;
}

type Facts = Record<ChannelStatEvent, boolean>;

function factsOf(message: EngagedMessage | undefined): Facts {
  if (!message) return { sent: false, delivered: false, failed: false, opened: false, clicked: false, read: false };
  const engagement = engagementOf(message);
  return {
    sent: message.status !== 'error',
    delivered: engagement.delivered,
    // A send that failed, or a receipt that said it never arrived (it makes the message `error` too: lib/receipts).
    failed: message.status === 'error',
    opened: engagement.opened,
    clicked: engagement.clicked,
    read: engagement.read,
  };
}

/** When an event of the message happened: its own time where the message keeps one. */
function timeOf(message: EngagedMessage, event: ChannelStatEvent, created: boolean): string {
  const own: Partial<Record<ChannelStatEvent, string | undefined>> = {
    delivered: message.channel === 'in_app' ? message.createdAt : message.deliveryStatusAt,
    opened: message.opened ?? message.deliveryStatusAt,
    clicked: message.clicked ?? message.deliveryStatusAt,
    read: message.lastReadDate,
  };
  return own[event] ?? (created ? message.createdAt : message.updatedAt);
}

export function countsOf(change: StoredChange): Count[] {
  if (change.expired || !change.after) return [];
  if (change.sk === ENGAGEMENT_SOURCE_SORT_KEYS.trigger) return change.before ? [] : triggerCounts(change.after as unknown as TriggerEvent);
  if (!isMessageChange(change)) return [];
  const before = factsOf(change.before as EngagedMessage | undefined);
  const message = change.after as unknown as EngagedMessage;
  const after = factsOf(message);
  const made = !change.before;
  const creationFact: ChannelStatEvent = after.failed ? 'failed' : 'sent';
  return CHANNEL_STAT_EVENTS.filter((event) => after[event] && !before[event]).map((event) => ({
    itemId: message._id,
    kind: 'message',
    event,
    workflowId: message.templateIdentifier,
    channel: message.channel,
    createdAt: message.createdAt,
    at: timeOf(message, event, made),
    ...(made && event === 'delivered' && message.channel === 'in_app' && { markedBy: creationFact }),
  }));
}

function triggerCounts(trigger: TriggerEvent): Count[] {
  // A transactionId may be used again once its trigger has expired: the time tells the two apart.
  const itemId = `${trigger.createdAt}#${trigger.transactionId}`;
  return [
    { itemId, kind: 'activity', event: 'triggered', workflowId: trigger.workflowId, createdAt: trigger.createdAt, at: trigger.createdAt },
  ];
}

/** The engagement events a message change makes true (what a delay waiting for engagement wakes on). */
export function engagementChanges(change: StoredChange): { message: StoredMessage; events: EngagementEvent[] } | undefined {
  if (change.expired || !change.after || !change.before || !isMessageChange(change)) return undefined;
  const before = engagementOf(change.before as unknown as EngagedMessage);
  const message = change.after as unknown as EngagedMessage;
  const after = engagementOf(message);
  const events = ENGAGEMENT_EVENTS.filter((event) => after[event] && !before[event]);
  return events.length > 0 ? { message, events } : undefined;
}
