// The one DynamoDB table: attribute names and indexes. The CDK stack and the local runtime both
// create the table from this definition, so the two can never drift apart.

/**
 * What the activity indexes hold besides the keys: the notification's id and every attribute the
 * activity feed's FilterExpression reads (lib/activity/filters.ts). The feed takes only keys from
 * them and reads the page's items whole by key, so the item (payload, jobs, execution details)
 * is not copied into the indexes, and the runner's rewrites of the item, which change none of
 * these, do not write the indexes at all.
 */
export const ACTIVITY_INDEX_ATTRIBUTES = [
  '_id',
  'createdAt',
  'subscriberId',
  'channels',
  '_templateId',
  'severity',
  'topicKeys',
  'contextKey',
] as const;

/**
 * What the message indexes hold besides the keys: the message's id and every attribute a message
 * list's FilterExpression reads (lib/messages/repository.ts). Lists take only keys from them and
 * read the page's messages whole by key, so a message costs a small entry per index instead of
 * two more copies of itself, and changing its read state rewrites only what they hold.
 */
export const MESSAGE_INDEX_ATTRIBUTES = ['_id', 'channel', 'transactionId', 'read', 'seen', '_feedId', 'payload', 'contextKey'] as const;

/**
 * What the inbox index (gsi7) holds besides the keys: every attribute an inbox list's filter reads
 * (lib/inbox/). The unread index (gsi8) is only counted and walked for keys: it holds `_id`.
 */
export const INBOX_INDEX_ATTRIBUTES = ['_id', 'createdAt', 'read', 'seen', 'archived', 'snoozedUntil', 'tags', 'severity', 'data'] as const;

/** `ALL`: the index holds whole items; otherwise the non-key attributes it holds (INCLUDE). */
export type IndexProjection = 'ALL' | readonly string[];

export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes late, so readers must still check it. */
  ttlAttribute: 'ttl',
  /** The stream's records carry the item before and after the change (webhook events are derived from them). */
  streamView: 'NEW_AND_OLD_IMAGES',
  indexes: [
    // Shared by several kinds of items, read whole from the index.
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    // Notifications only: the activity feed by day (gsi3) and by subscriber (gsi4).
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: ACTIVITY_INDEX_ATTRIBUTES },
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: ACTIVITY_INDEX_ATTRIBUTES },
    // Messages only: the environment's messages by id (gsi5), a subscriber's unseen in-app ones (gsi6, sparse).
    { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk', projection: MESSAGE_INDEX_ATTRIBUTES },
    { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk', projection: MESSAGE_INDEX_ATTRIBUTES },
    // In-app messages only: a subscriber's inbox by id (gsi7), its unread ones by severity and id (gsi8, sparse).
    { name: 'gsi7', partitionKey: 'gsi7pk', sortKey: 'gsi7sk', projection: INBOX_INDEX_ATTRIBUTES },
    { name: 'gsi8', partitionKey: 'gsi8pk', sortKey: 'gsi8sk', projection: ['_id'] },
  ],
} as const;

export type IndexName = (typeof TABLE.indexes)[number]['name'];
