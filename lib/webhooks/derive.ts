import type { StoredMessage } from '../messages/model.ts';
import { WEBHOOK_SOURCE_SORT_KEYS } from '../store/keys.ts';
import { isMessageChange, type StoredChange } from '../store/stream-change.ts';
import type { WebhookEventType } from './event-types.ts';

// Which webhook events one stored change makes, read from the item's images before and after
// (the table's stream): nothing here is told what happened, so an event exists exactly when its
// change was stored. A change may make several events (a message marked read and seen at once);
// an item removed by DynamoDB's TTL, not by the service, makes none.

type Source = 'message' | 'workflow' | 'preference';

export function sourceOf(sk: string): Source | undefined {
  if (sk.startsWith(WEBHOOK_SOURCE_SORT_KEYS.messagePrefix)) return 'message';
  if (sk === WEBHOOK_SOURCE_SORT_KEYS.workflow) return 'workflow';
  if (sk.startsWith(WEBHOOK_SOURCE_SORT_KEYS.preferencePrefix)) return 'preference';
  return undefined;
}

export function eventTypesOf(change: StoredChange): WebhookEventType[] {
  if (change.expired) return [];
  switch (sourceOf(change.sk)) {
    case 'message':
      if (!isMessageChange(change)) return [];
      return messageEvents(change.before as StoredMessage | undefined, change.after as StoredMessage | undefined);
    case 'workflow':
      return workflowEvents(change.before, change.after);
    case 'preference':
      return change.after && changed(change.before, change.after, ['updatedAt', 'version']) ? ['preference.updated'] : [];
    default:
      return [];
  }
}

function messageEvents(before: StoredMessage | undefined, after: StoredMessage | undefined): WebhookEventType[] {
  if (!after) return before ? ['message.deleted'] : [];
  if (!before) {
    if (after.status === 'error') return ['message.failed'];
    // The reference emits sent, then delivered, for an in-app message as soon as it is made;
    // other channels are delivered when the provider says so.
    return after.channel === 'in_app' ? ['message.sent', 'message.delivered'] : ['message.sent'];
  }
  const events: WebhookEventType[] = [];
  if (before.status !== 'error' && after.status === 'error') events.push('message.failed');
  // Email and sms: the provider's receipt said it reached the recipient (lib/receipts).
  if (after.channel !== 'in_app' && !reached(before.deliveryStatus) && reached(after.deliveryStatus)) events.push('message.delivered');
  if (!before.seen && after.seen) events.push('message.seen');
  if (before.read !== after.read) events.push(after.read ? 'message.read' : 'message.unread');
  if (before.archived !== after.archived) events.push(after.archived ? 'message.archived' : 'message.unarchived');
  if (!before.snoozedUntil && after.snoozedUntil) events.push('message.snoozed');
  if (before.snoozedUntil && !after.snoozedUntil) events.push('message.unsnoozed');
  // Engagement (lib/engagement): the first open and first click set their time once; every later
  // click only counts.
  if (!before.opened && after.opened) events.push('message.opened');
  if (!before.clicked && after.clicked) events.push('message.link_clicked');
  else if (before.clicked && (after.clickCount ?? 0) > (before.clickCount ?? 0)) events.push('message.link_reclicked');
  return events;
}

/** A receipt status that means the message reached its recipient (an open or click implies it). */
const reached = (status: string | undefined): boolean => status === 'delivered' || status === 'opened' || status === 'clicked';

/** Bookkeeping a workflow's item carries that is no change of the workflow. */
const WORKFLOW_BOOKKEEPING = ['lastTriggeredAt', 'version', 'updatedAt', 'updatedBy'];

function workflowEvents(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): WebhookEventType[] {
  if (!after) return before ? ['workflow.deleted'] : [];
  const events: WebhookEventType[] = [];
  // A workflow given a new workflowId is stored under its new key with its id and creation time
  // (a v1 PUT with `identifier`): an update, not a creation (its removal under the old key is
  // no deletion either: emit.ts).
  if (!before) events.push(after.createdAt === after.updatedAt ? 'workflow.created' : 'workflow.updated');
  else if (changed(before, after, [...WORKFLOW_BOOKKEEPING, 'lastPublishedAt', 'lastPublishedBy'])) events.push('workflow.updated');
  if (after.lastPublishedAt && after.lastPublishedAt !== before?.lastPublishedAt) events.push('workflow.published');
  return events;
}

/** Whether the two images differ in anything but `ignored`. */
function changed(before: Record<string, unknown> | undefined, after: Record<string, unknown>, ignored: readonly string[]): boolean {
  if (!before) return true;
  const strip = (item: Record<string, unknown>) =>
    JSON.stringify(
      Object.entries(item)
        .filter(([k]) => !ignored.includes(k))
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  return strip(before) !== strip(after);
}
