import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import type { Channel } from '../integrations/catalogue.ts';
import { batchGet } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { ExpressionBuilder, type Filter } from '../store/expression.ts';
import { INDEXES, keys, MESSAGE_ITEM_TYPE, type Key } from '../store/keys.ts';
import { onIndex, withoutKeys } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryPages, type QueryInput } from '../store/query-pages.ts';
import { isExpired, oldestKeptId, ttlOf } from '../store/retention.ts';
import { merged, QuerySource, type RefQueryInput } from '../store/ref-source.ts';
import type { StoredMessage } from './model.ts';
import type { PayloadCondition } from './payload-filter.ts';
import { contextKeyOf } from '../context-keys.ts';

// Storage of messages: one item per message in the subscriber's partition (`MSG#<id>`, ids sort
// by creation). gsi5 lists every message of the environment by id, over MESSAGE_LIST_SHARDS
// index partitions (a list reads them together and merges them by id); gsi6 holds only unseen in-app
// messages of a subscriber (sparse), so the unseen count reads only unseen messages. Every write
// that changes `seen` sets or removes the gsi6 attributes with it. Both hold only what the lists'
// filters read (MESSAGE_INDEX_ATTRIBUTES): a page's messages are read whole by key.

export const scopeOfMessage = (m: Pick<StoredMessage, '_organizationId' | '_environmentId'>): EnvScope => ({
  organizationId: m._organizationId,
  environmentId: m._environmentId,
});

/** Not read, not archived, not snoozed: what the inbox's unread counts count. */
export const isUnread = (m: Pick<StoredMessage, 'read' | 'archived' | 'snoozedUntil'>): boolean =>
  !m.read && !m.archived && !m.snoozedUntil;

/**
 * The index attributes a message's state puts it under (absent ones are removed): unseen (gsi6),
 * and for in-app messages the inbox of its context keys (gsi7) and, while unread, its unread
 * index (gsi8). Every write of a message's state writes these with it.
 */
const STATE_INDEXES = [INDEXES.message.unseen, INDEXES.message.inbox, INDEXES.message.unread] as const;
const STATE_INDEX_ATTRIBUTES = STATE_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey] as const);

function stateIndexes(m: StoredMessage): Partial<Record<(typeof STATE_INDEX_ATTRIBUTES)[number], string>> {
  if (m.channel !== 'in_app') return {};
  const scope = scopeOfMessage(m);
  const ctx = contextKeyOf(m.contextKeys ?? []);
  return {
    ...(!m.seen && keys.unseenMessageIndex(scope, m.subscriberId, m._id)),
    ...keys.inboxIndex(scope, m.subscriberId, ctx, m._id),
    ...(isUnread(m) && keys.unreadInboxIndex(scope, m.subscriberId, ctx, m.severity, m._id)),
  };
}

export function messageItem(m: StoredMessage): Record<string, unknown> {
  const scope = scopeOfMessage(m);
  return {
    ...keys.message(scope, m.subscriberId, m._id),
    ...keys.messageListIndex(scope, m._id),
    ...stateIndexes(m),
    ...providerIdIndex(m),
    type: MESSAGE_ITEM_TYPE,
    ...m,
    // Flat, for the inbox's unseen count to filter on (the exact-set form, lib/context-keys.ts).
    contextKey: contextKeyOf(m.contextKeys ?? []),
    // Deleted by DynamoDB after the messages' retention; state writes never change it.
    ...ttlOf('message', m._id),
  };
}

/** W7: a sent email or sms message under the provider's id of it, for its delivery receipts. */
function providerIdIndex(m: StoredMessage) {
  if ((m.channel !== 'email' && m.channel !== 'sms') || !m.identifier) return {};
  return keys.providerMessageIndex(scopeOfMessage(m), m.providerId, m.identifier, m._id);
}

export function messageFromItem(item: Record<string, unknown>): StoredMessage {
  const { type: _t, contextKey: _ck, ttl: _ttl, ...message } = withoutKeys(item, INDEXES.message);
  return message as unknown as StoredMessage;
}

// ---- creating --------------------------------------------------------------------------------

/** Creates the message unless its id is stored already (an earlier run of the job made it); false then. */
export function createMessageOnce(m: StoredMessage): Promise<boolean> {
  return writeIf(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: messageItem(m), ConditionExpression: 'attribute_not_exists(pk)' })),
  );
}

// ---- reading ---------------------------------------------------------------------------------

/** Which messages a read walks, newest first. */
export type MessageRange =
  /** Every message of the environment: the index partitions of gsi5, merged. */
  { of: 'environment' } | SubscriberRange;

/** A range of one subscriber: one partition. */
export type SubscriberRange =
  | { of: 'subscriber'; subscriberId: string }
  /** The sparse index: only the subscriber's unseen in-app messages. */
  | { of: 'unseenInApp'; subscriberId: string };

/** Conditions on the messages of a range; all must hold. */
export interface MessageFilter {
  channel?: Channel;
  transactionIds?: string[];
  read?: boolean;
  seen?: boolean;
  /** `_feedId` is one of these (none: nothing matches, so callers skip the read). */
  feedIds?: string[];
  payload?: PayloadCondition[];
}

/** The range's Queries: one per partition it spans. */
function rangeQueries(scope: EnvScope, range: MessageRange): QueryInput[] {
  if (range.of === 'environment') {
    const kept = oldestKeptId('message');
    return keys.messagesOfEnvironment(scope).map(({ gsi5pk }) => ({
      IndexName: INDEXES.message.ofEnvironment.name,
      KeyConditionExpression: onIndex(INDEXES.message.ofEnvironment, '>= :kept'),
      ExpressionAttributeValues: { ':pk': gsi5pk, ':kept': kept },
    }));
  }
  return [rangeQuery(scope, range)];
}

// Every range starts at the oldest message not expired (ids are time first): expired messages
// DynamoDB has not deleted yet are neither listed nor counted, and cost no read.
function rangeQuery(scope: EnvScope, range: SubscriberRange): QueryInput {
  const kept = oldestKeptId('message');
  switch (range.of) {
    case 'subscriber': {
      const { pk, skPrefix } = keys.messagesOfSubscriber(scope, range.subscriberId);
      return {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :kept AND :last',
        ExpressionAttributeValues: { ':pk': pk, ':kept': `${skPrefix}${kept}`, ':last': `${skPrefix}~` },
      };
    }
    case 'unseenInApp': {
      const { gsi6pk } = keys.unseenMessagesOfSubscriber(scope, range.subscriberId);
      return {
        IndexName: INDEXES.message.unseen.name,
        KeyConditionExpression: onIndex(INDEXES.message.unseen, '>= :kept'),
        ExpressionAttributeValues: { ':pk': gsi6pk, ':kept': kept },
      };
    }
  }
}

/** The FilterExpression of a message list (exported for the test that the indexes hold what it reads). */
export function filterOf(filter: MessageFilter): Filter {
  const e = new ExpressionBuilder();
  if (filter.channel !== undefined) e.and(e.equals('channel', filter.channel));
  if (filter.read !== undefined) e.and(e.equals('read', filter.read));
  if (filter.seen !== undefined) e.and(e.equals('seen', filter.seen));
  if (filter.transactionIds?.length) e.and(e.in('transactionId', filter.transactionIds));
  if (filter.feedIds?.length) e.and(e.in('_feedId', filter.feedIds));
  for (const { path, value } of filter.payload ?? []) {
    const attribute = [e.name('payload'), ...path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${e.name(p)}`))].join('');
    e.and(
      value === null
        ? `(attribute_not_exists(${attribute}) OR attribute_type(${attribute}, ${e.value('NULL')}))`
        : `${attribute} = ${e.value(value)}`,
    );
  }
  return e.build();
}

/** The range's Query with the filter, newest first; `extra` adds a projection or a select. */
function messagesQuery(scope: EnvScope, range: SubscriberRange, filter: MessageFilter, extra: Partial<QueryInput> = {}): QueryInput {
  return withMessageFilter(rangeQuery(scope, range), filter, extra);
}

function withMessageFilter(base: QueryInput, filter: MessageFilter, extra: Partial<QueryInput> = {}): QueryInput {
  const f = filterOf(filter);
  const names = { ...f.ExpressionAttributeNames, ...extra.ExpressionAttributeNames };
  return {
    ...base,
    ...extra,
    ScanIndexForward: false,
    ...(f.FilterExpression && { FilterExpression: f.FilterExpression }),
    ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
    ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...f.ExpressionAttributeValues },
  };
}

export interface MessagePage {
  /** The page's messages, newest first. */
  messages: StoredMessage[];
  /** Every message of the range that matches the filter. */
  totalCount: number;
}

/** totalCount counts at most this many matches past the requested page (then it is a lower bound). */
export const MAX_COUNT_AHEAD = 5_000;

/**
 * The `limit` matching messages after the first `offset`, and how many match in all. Offset
 * paging on DynamoDB walks the range from its start: the keys are read (projected, so little is
 * sent) until the page is full, the rest is only counted (Select COUNT), and the page's items are
 * then fetched with one BatchGetItem per 100. Items up to the page are read on every request
 * (a filter narrows what is returned, not what DynamoDB reads); past it, counting stops after
 * about MAX_COUNT_AHEAD matches. The environment's range is several index partitions
 * (MESSAGE_LIST_SHARDS): their Queries are merged newest first (each reads about its share of
 * the page) and counted together (lib/store/ref-source.ts).
 */
export async function pageOfMessages(
  scope: EnvScope,
  range: MessageRange,
  filter: MessageFilter,
  offset: number,
  limit: number,
): Promise<MessagePage> {
  const partitions = rangeQueries(scope, range).map((query) => new QuerySource(withMessageFilter(query, filter) as RefQueryInput));
  const source = merged(partitions, { spread: true });
  // One partition reads the keys past the page it will count anyway in the same pages (as many
  // requests as counting them); shards read only what the page needs, then count at once.
  const ahead = partitions.length === 1 ? MAX_COUNT_AHEAD : 0;
  const pageKeys: Key[] = [];
  let matched = 0;
  while (matched < offset + limit) {
    const ref = await source.next(offset + limit - matched + ahead);
    if (!ref) break;
    if (matched >= offset) pageKeys.push({ pk: ref.pk, sk: ref.sk });
    matched += 1;
  }
  // Counting stops this far past the page, so a request's cost is bounded whatever the range holds.
  const totalCount = matched + (pageKeys.length === limit ? await source.countRest({ left: MAX_COUNT_AHEAD }) : 0);

  const items = pageKeys.length > 0 ? await batchGet(pageKeys) : [];
  const messages = items.map(messageFromItem).sort((a, b) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
  return { messages, totalCount };
}

/**
 * How many messages of the range match, counting no further than `max`. Without a filter the
 * Query's Limit stops the read at `max` items; with one, pages are counted until `max` is reached.
 */
export async function countMessages(scope: EnvScope, range: SubscriberRange, filter: MessageFilter, max: number): Promise<number> {
  const query = messagesQuery(scope, range, filter, { Select: 'COUNT' });
  const unfiltered = query.FilterExpression === undefined;
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({ TableName: tableName(), ...query, ...(unfiltered && { Limit: max - count }), ExclusiveStartKey: startKey }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey && count < max);
  return Math.min(count, max);
}

/** The ids of the range's matching messages, a Query page at a time (memory stays bounded). */
export async function* messageIdPages(scope: EnvScope, range: SubscriberRange, filter: MessageFilter): AsyncGenerator<string[]> {
  const query = messagesQuery(scope, range, filter, { ProjectionExpression: '#mid', ExpressionAttributeNames: { '#mid': '_id' } });
  for await (const items of queryPages(query)) yield items.map((item) => item._id as string);
}

/** A message read by key, unless it has expired (DynamoDB deletes late): an expired message is not found. */
const keptMessage = (item: Record<string, unknown> | undefined): StoredMessage | undefined =>
  item && !isExpired('message', item._id as string) ? messageFromItem(item) : undefined;

/** The subscriber's messages among `messageIds` (at most 100); other ids are simply not found. */
export async function getMessagesOfSubscriber(
  scope: EnvScope,
  subscriberId: string,
  messageIds: readonly string[],
): Promise<StoredMessage[]> {
  const items = await batchGet(messageIds.map((id) => keys.message(scope, subscriberId, id)));
  return items.flatMap((item) => keptMessage(item) ?? []);
}

/** One message of a subscriber by id, read consistently (one just written is found). */
export async function getMessage(scope: EnvScope, subscriberId: string, messageId: string): Promise<StoredMessage | undefined> {
  return keptMessage(await getItem(keys.message(scope, subscriberId, messageId), { consistent: true }));
}

/**
 * The key of a message of the environment, found by id alone (gsi5; eventually consistent): in
 * the shard its id names, else in shard 0, where entries written before sharding are.
 */
export async function findMessageKey(scope: EnvScope, messageId: string): Promise<Key | undefined> {
  if (isExpired('message', messageId)) return undefined;
  for (const { gsi5pk, gsi5sk } of keys.messageListLookup(scope, messageId)) {
    const { Items } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.message.ofEnvironment.name,
        KeyConditionExpression: onIndex(INDEXES.message.ofEnvironment, '= :sk'),
        ExpressionAttributeValues: { ':pk': gsi5pk, ':sk': gsi5sk },
        ProjectionExpression: 'pk, sk',
      }),
    );
    const item = Items?.[0];
    if (item) return { pk: item.pk as string, sk: item.sk as string };
  }
  return undefined;
}

/** The messages the provider knows by `identifier` (W7: one in practice), read whole. */
export async function findMessagesByProviderId(scope: EnvScope, providerId: string, identifier: string): Promise<StoredMessage[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.message.byProviderId.name,
      KeyConditionExpression: onIndex(INDEXES.message.byProviderId),
      ExpressionAttributeValues: { ':pk': keys.messageOfProviderId(scope, providerId, identifier).gsi1pk },
      ProjectionExpression: 'pk, sk',
      Limit: 10,
    }),
  );
  const found = await Promise.all(
    (Items ?? []).map((item) => getItem({ pk: item.pk as string, sk: item.sk as string }, { consistent: true })),
  );
  return found.flatMap((item) => keptMessage(item) ?? []);
}

/** The message deleted; undefined when it was already gone. */
export async function deleteMessage(key: Key): Promise<StoredMessage | undefined> {
  const { Attributes } = await db().send(new DeleteCommand({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' }));
  return Attributes && messageFromItem(Attributes);
}

// ---- state -----------------------------------------------------------------------------------

/** The fields a change of state may set; a field set to undefined is removed. */
export const STATE_FIELDS = [
  'read',
  'seen',
  'archived',
  'lastReadDate',
  'lastSeenDate',
  'firstSeenDate',
  'archivedAt',
  'snoozedUntil',
  'deliveredAt',
  'cta',
  'updatedAt',
  'status',
  'errorId',
  'errorText',
  'deliveryStatus',
  'deliveryStatusAt',
] as const satisfies readonly (keyof StoredMessage)[];

/**
 * Writes `next`'s state over the message, with the index attributes it decides, if the message
 * still exists and nobody changed its state since `current` was read (its `stateVersion`).
 * False when that condition failed: the caller reads it again and decides again.
 */
export function saveMessageState(current: StoredMessage, next: StoredMessage): Promise<boolean> {
  return writeIf(() => db().send(new UpdateCommand(messageStateUpdate(current, next))));
}

/** The conditional update of saveMessageState, for a caller that writes it in a transaction. */
export function messageStateUpdate(current: StoredMessage, next: StoredMessage) {
  const e = new ExpressionBuilder();
  const set: string[] = [];
  const remove: string[] = [];
  const indexes = stateIndexes(next);
  for (const field of STATE_FIELDS) {
    if (next[field] === undefined) remove.push(e.name(field));
    else set.push(e.equals(field, next[field]));
  }
  for (const attribute of STATE_INDEX_ATTRIBUTES) {
    const value = indexes[attribute];
    if (value === undefined) remove.push(attribute);
    else set.push(`${attribute} = ${e.value(value)}`);
  }
  const version = current.stateVersion ?? 0;
  set.push(`${e.name('stateVersion')} = ${e.value(version + 1)}`);
  const condition =
    version === 0
      ? `attribute_exists(pk) AND attribute_not_exists(${e.name('stateVersion')})`
      : `${e.name('stateVersion')} = ${e.value(version)}`;
  return {
    TableName: tableName(),
    Key: keys.message(scopeOfMessage(current), current.subscriberId, current._id),
    UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ...e.placeholders(),
  };
}
