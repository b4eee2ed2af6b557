import type { WebhookEventType } from './event-types.ts';

// When an event's change happened: its `timestamp`. Read from the item the change wrote, which
// carries its own time (the field the change set, else its `updatedAt`), not from the stream
// record's approximate creation time, which AWS rounds to the second and DynamoDB Local to the
// minute. A deletion writes no time of its own: the stream's time, never earlier than the last
// write of the item it removed.

/** The field that holds the time of each event's change, where it is not `updatedAt`. */
const OWN_TIME: Partial<Record<WebhookEventType, string>> = {
  'message.delivered': 'deliveryStatusAt',
  'message.seen': 'lastSeenDate',
  'message.read': 'lastReadDate',
  'message.unread': 'lastReadDate',
  'message.archived': 'archivedAt',
  'message.opened': 'opened',
  'message.link_clicked': 'clicked',
  'message.link_reclicked': 'lastClickedAt',
  'workflow.published': 'lastPublishedAt',
};

const timeIn = (item: Record<string, unknown> | undefined, field: string): number | undefined => {
  const value = item?.[field];
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

export function eventTime(
  type: WebhookEventType,
  change: { before?: Record<string, unknown>; after?: Record<string, unknown>; at: number },
): string {
  const { before, after, at } = change;
  if (!after) return new Date(Math.max(at, timeIn(before, 'updatedAt') ?? 0)).toISOString();
  const own = OWN_TIME[type];
  const ms = (own && timeIn(after, own)) ?? timeIn(after, 'updatedAt') ?? at;
  return new Date(ms).toISOString();
}
