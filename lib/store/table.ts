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
 * What the inbox index (INDEX.inbox) holds besides the keys: every attribute an inbox list's filter reads
 * (lib/inbox/). The unread index (INDEX.unreadInbox) is only counted and walked for keys: it holds `_id`.
 */
export const INBOX_INDEX_ATTRIBUTES = ['_id', 'createdAt', 'read', 'seen', 'archived', 'snoozedUntil', 'tags', 'severity', 'data'] as const;

/** `ALL`: the index holds whole items; otherwise the non-key attributes it holds (INCLUDE). */
export type IndexProjection = 'ALL' | readonly string[];

/** One global secondary index: its name, the attributes of its keys, what it holds. */
export interface TableIndex<N extends string = string> {
  readonly name: N;
  readonly partitionKey: `${N}pk`;
  readonly sortKey: `${N}sk`;
  readonly projection: IndexProjection;
}

const gsi = <N extends string, P extends IndexProjection>(name: N, projection: P) =>
  ({ name, partitionKey: `${name}pk`, sortKey: `${name}sk`, projection }) as const satisfies TableIndex<N>;

/**
 * The indexes, named for what they hold: every Query of an index names it from here, and keys.ts
 * builds its keys from here (its `INDEXES` says which index each kind of item is on). The stored
 * names (`gsiN`, `gsiNpk`, `gsiNsk`) must never change: they are the table's schema.
 */
export const INDEX = {
  /** Shared by several kinds of items (lists of an environment's records, lookups by a second id), read whole. */
  shared1: gsi('gsi1', 'ALL'),
  /** Shared like shared1, for a kind's second list or lookup. */
  shared2: gsi('gsi2', 'ALL'),
  /** Notifications only: the activity feed by day. */
  activityByDay: gsi('gsi3', ACTIVITY_INDEX_ATTRIBUTES),
  /** Notifications only: the activity feed of one subscriber. */
  activityOfSubscriber: gsi('gsi4', ACTIVITY_INDEX_ATTRIBUTES),
  /** Messages only: the environment's messages by id. */
  messagesOfEnvironment: gsi('gsi5', MESSAGE_INDEX_ATTRIBUTES),
  /** Messages only: a subscriber's unseen in-app ones (sparse). */
  unseenMessages: gsi('gsi6', MESSAGE_INDEX_ATTRIBUTES),
  /** In-app messages only: a subscriber's inbox by id. */
  inbox: gsi('gsi7', INBOX_INDEX_ATTRIBUTES),
  /** In-app messages only: a subscriber's unread ones by severity and id (sparse, counted and walked for keys). */
  unreadInbox: gsi('gsi8', ['_id'] as const),
} as const;

export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes late, so readers must still check it. */
  ttlAttribute: 'ttl',
  /** The stream's records carry the item before and after the change (webhook events are derived from them). */
  streamView: 'NEW_AND_OLD_IMAGES',
  indexes: [
    INDEX.shared1,
    INDEX.shared2,
    INDEX.activityByDay,
    INDEX.activityOfSubscriber,
    INDEX.messagesOfEnvironment,
    INDEX.unseenMessages,
    INDEX.inbox,
    INDEX.unreadInbox,
  ],
} as const;

export type IndexName = (typeof TABLE.indexes)[number]['name'];
