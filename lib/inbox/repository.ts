import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import type { StoredMessage } from '../messages/model.ts';
import { messageFromItem } from '../messages/repository.ts';
import { batchGet } from '../store/batch.ts';
import { ExpressionBuilder } from '../store/expression.ts';
import { oldestKeptId } from '../store/retention.ts';
import { isUnreadOnly, type InboxFilter } from './filter.ts';

// Reads of a subscriber's inbox indexes (lib/store/keys.ts: gsi6 unseen, gsi7 inbox, gsi8 unread).
// Messages themselves are read and written by lib/messages/repository.ts. Every key range starts
// at the oldest message not expired (lib/store/retention.ts; ids are time first), so a message
// leaves the lists and the counts when its retention ends, whether or not DynamoDB deleted it.

/** Unread messages of one severity, counted up to `max` (a Query that stops at `max` index entries). */
export async function countUnread(scope: EnvScope, subscriberId: string, ctx: string, severity: string, max: number): Promise<number> {
  const { Count } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.message.unread.name,
      KeyConditionExpression: onIndex(INDEXES.message.unread, 'BETWEEN :from AND :to'),
      ExpressionAttributeValues: { ':pk': keys.unreadInbox(scope, subscriberId, ctx).gsi8pk, ...unreadRange(severity, undefined) },
      Select: 'COUNT',
      Limit: max,
    }),
  );
  return Count ?? 0;
}

/**
 * Unread messages of each severity, each counted up to `max`: what a Query per severity
 * (countUnread) answers, from one Query of the whole unread partition while it holds no more than
 * `max` entries. Entries come severity by severity (the sort key starts with it); a page that
 * ends inside a severity already counted to `max` goes on from the next one's start, so a large
 * inbox reads about what one Query per severity did. Entries past retention in the range (the
 * key condition bounds only the first severity's) are read and left out.
 */
export async function countUnreadBySeverity(
  scope: EnvScope,
  subscriberId: string,
  ctx: string,
  severities: readonly string[],
  max: number,
): Promise<Record<string, number>> {
  const kept = oldestKeptId('message');
  // DynamoDB orders sort keys by their bytes, as `<` orders these ASCII prefixes.
  const inKeyOrder = [...severities].sort((a, b) => (keys.unreadSeverityPrefix(a) < keys.unreadSeverityPrefix(b) ? -1 : 1));
  const counts: Record<string, number> = Object.fromEntries(severities.map((s) => [s, 0]));
  const to = `${keys.unreadSeverityPrefix(inKeyOrder[inKeyOrder.length - 1]!)}~`;
  const unread = INDEXES.message.unread;
  let next = 0;
  let startKey: Record<string, unknown> | undefined;
  while (next < inKeyOrder.length) {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: unread.name,
        KeyConditionExpression: onIndex(unread, 'BETWEEN :from AND :to'),
        ExpressionAttributeValues: {
          ':pk': keys.unreadInbox(scope, subscriberId, ctx).gsi8pk,
          ':from': `${keys.unreadSeverityPrefix(inKeyOrder[next]!)}${kept}`,
          ':to': to,
        },
        ProjectionExpression: unread.sortKey,
        Limit: max,
        ExclusiveStartKey: startKey,
      }),
    );
    const items = result.Items ?? [];
    for (const item of items) {
      const [severity, id] = splitUnreadKey(item[unread.sortKey] as string);
      if (Object.hasOwn(counts, severity) && id >= kept && counts[severity]! < max) counts[severity]!++;
    }
    if (!result.LastEvaluatedKey) break;
    // The page stopped inside a severity already counted to `max`: on from the next one's start.
    const [last] = splitUnreadKey(items[items.length - 1]?.[unread.sortKey] as string);
    const full = Object.hasOwn(counts, last) && counts[last]! >= max;
    next = full ? inKeyOrder.indexOf(last) + 1 : next;
    startKey = full ? undefined : result.LastEvaluatedKey;
  }
  return counts;
}

/** An unread index entry's sort key: its severity, then the message id. */
function splitUnreadKey(sk: string | undefined): [string, string] {
  const cut = sk?.indexOf('#') ?? -1;
  return cut < 0 ? ['', ''] : [sk!.slice(0, cut), sk!.slice(cut + 1)];
}

/**
 * Unseen in-app messages of these context keys, counted up to `max`. The unseen index holds every
 * context's, so the count filters: it reads no more than the subscriber's unseen messages (only
 * `max` of them when no other context has unseen ones).
 */
export async function countUnseen(scope: EnvScope, subscriberId: string, ctx: string, max: number): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.message.unseen.name,
        KeyConditionExpression: onIndex(INDEXES.message.unseen, '>= :kept'),
        FilterExpression: ctx === '' ? '(attribute_not_exists(contextKey) OR contextKey = :ctx)' : 'contextKey = :ctx',
        ExpressionAttributeValues: {
          ':pk': keys.unseenMessagesOfSubscriber(scope, subscriberId).gsi6pk,
          ':ctx': ctx,
          ':kept': oldestKeptId('message'),
        },
        Select: 'COUNT',
        Limit: max - count,
        ExclusiveStartKey: startKey,
      }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey && count < max);
  return Math.min(count, max);
}

// ---- lists ---------------------------------------------------------------------------------------

export interface InboxPageRequest {
  filter: InboxFilter;
  /** Messages older than this id (the client's cursor: the last id it has). */
  after?: string;
  offset: number;
  limit: number;
}

export interface InboxPage {
  messages: StoredMessage[];
  hasMore: boolean;
}

/** Ids are time first (8 hex digits of seconds): the bounds of a creation-time range as sort keys. */
const idAtOrAfter = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0');
const idAtOrBefore = (ms: number) =>
  `${Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0')}~`;

/**
 * A page of the inbox, newest first. Exactly the unread messages (the Unread tab) come from the
 * unread index, one bounded Query per severity merged by id; anything else walks the inbox index
 * newest first with the filter until the page is full (a filter narrows what is returned, not
 * what is read, so a rare match can read far), then the page's messages are read by key.
 */
export async function inboxPage(scope: EnvScope, subscriberId: string, ctx: string, request: InboxPageRequest): Promise<InboxPage> {
  const wanted = request.offset + request.limit + 1;
  const ids = isUnreadOnly(request.filter)
    ? await unreadIds(scope, subscriberId, ctx, request.filter.severity ?? SEVERITY_ORDER, request.after, wanted)
    : await filteredIds(scope, subscriberId, ctx, request, wanted);
  const page = ids.slice(request.offset, request.offset + request.limit);
  const items = page.length > 0 ? await batchGet(page.map((id) => keys.message(scope, subscriberId, id))) : [];
  const byId = new Map(items.map((item) => [item._id as string, messageFromItem(item)]));
  return { messages: page.flatMap((id) => byId.get(id) ?? []), hasMore: ids.length > request.offset + request.limit };
}

const SEVERITY_ORDER = ['high', 'medium', 'low', 'none'] as const;

async function unreadIds(
  scope: EnvScope,
  subscriberId: string,
  ctx: string,
  severities: readonly string[],
  after: string | undefined,
  wanted: number,
): Promise<string[]> {
  const pk = keys.unreadInbox(scope, subscriberId, ctx).gsi8pk;
  const lists = await Promise.all(
    severities.map(async (severity) => {
      const range = unreadRange(severity, after);
      if (range[':to'] < range[':from']) return [];
      const { Items = [] } = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: INDEXES.message.unread.name,
          KeyConditionExpression: onIndex(INDEXES.message.unread, 'BETWEEN :from AND :to'),
          ExpressionAttributeValues: { ':pk': pk, ...range },
          ProjectionExpression: '#id',
          ExpressionAttributeNames: { '#id': '_id' },
          ScanIndexForward: false,
          Limit: wanted,
        }),
      );
      return Items.map((item) => item._id as string);
    }),
  );
  return lists
    .flat()
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    .slice(0, wanted);
}

/**
 * The sort keys of one severity's unread messages not expired, below `after` when given (`after`
 * itself is left out). Empty when `:to` sorts before `:from` (a cursor older than the retention).
 */
function unreadRange(severity: string, after: string | undefined): { ':from': string; ':to': string } {
  const prefix = keys.unreadSeverityPrefix(severity);
  return { ':from': `${prefix}${oldestKeptId('message')}`, ':to': after ? `${prefix}${before(after)}` : `${prefix}~` };
}

async function filteredIds(
  scope: EnvScope,
  subscriberId: string,
  ctx: string,
  request: InboxPageRequest,
  wanted: number,
): Promise<string[]> {
  const query = inboxQuery(scope, subscriberId, ctx, request.filter, request.after);
  if (!query) return [];
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(new QueryCommand({ ...query, Limit: Math.max(wanted, 25), ExclusiveStartKey: startKey }));
    for (const item of result.Items ?? []) ids.push(item._id as string);
    startKey = result.LastEvaluatedKey;
  } while (startKey && ids.length < wanted);
  return ids.slice(0, wanted);
}

/** How many inbox messages match, counted no further than `max`. */
export async function countInbox(scope: EnvScope, subscriberId: string, ctx: string, filter: InboxFilter, max: number): Promise<number> {
  if (isUnreadOnly(filter)) {
    const counts = await Promise.all(
      (filter.severity ?? SEVERITY_ORDER).map((severity) => countUnread(scope, subscriberId, ctx, severity, max)),
    );
    return Math.min(
      max,
      counts.reduce((a, b) => a + b, 0),
    );
  }
  const query = inboxQuery(scope, subscriberId, ctx, filter, undefined);
  if (!query) return 0;
  const { ProjectionExpression: _p, ExpressionAttributeNames: names, ...countQuery } = query;
  // Without the projection, its name placeholder would be unused (DynamoDB refuses that).
  const { '#id': _id, ...used } = names;
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        ...countQuery,
        ...(Object.keys(used).length > 0 && { ExpressionAttributeNames: used }),
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey && count < max);
  return Math.min(count, max);
}

/** The inbox index Query of a filter, newest first, projecting the ids; undefined when its key range is empty. */
function inboxQuery(scope: EnvScope, subscriberId: string, ctx: string, f: InboxFilter, after: string | undefined) {
  const e = new ExpressionBuilder();
  if (f.read !== undefined) e.and(e.equals('read', f.read));
  if (f.seen !== undefined) e.and(e.equals('seen', f.seen));
  if (f.archived !== undefined) e.and(e.equals('archived', f.archived));
  // Snoozed messages are out of the inbox unless asked for.
  e.and(f.snoozed === true ? `attribute_exists(${e.name('snoozedUntil')})` : `attribute_not_exists(${e.name('snoozedUntil')})`);
  for (const group of f.tags ?? []) {
    const tags = e.name('tags');
    e.and(`(${group.map((t) => `contains(${tags}, ${e.value(t)})`).join(' OR ')})`);
  }
  for (const { path, values } of f.data ?? []) {
    const attribute = [e.name('data'), ...path.map((p) => e.name(p))].join('.');
    e.and(`${attribute} IN (${values.map((v) => e.value(v)).join(', ')})`);
  }
  if (f.severity?.length) e.and(e.in('severity', f.severity));
  if (f.createdGte !== undefined) e.and(`${e.name('createdAt')} >= ${e.value(new Date(f.createdGte).toISOString())}`);
  if (f.createdLte !== undefined) e.and(`${e.name('createdAt')} <= ${e.value(new Date(f.createdLte).toISOString())}`);
  const filter = e.build();

  // The creation range and the cursor narrow the key range too, so neither reads what it
  // excludes; the range never starts before the oldest message kept.
  const kept = oldestKeptId('message');
  const from = f.createdGte !== undefined && idAtOrAfter(f.createdGte) > kept ? idAtOrAfter(f.createdGte) : kept;
  let to = f.createdLte !== undefined ? idAtOrBefore(f.createdLte) : undefined;
  if (after !== undefined && (to === undefined || after <= to)) to = after;
  const exclusiveTo = after !== undefined && to === after;
  // A range that ends before it starts (a cursor older than createdGte, createdLte before
  // createdGte) selects nothing, and DynamoDB refuses it as a BETWEEN.
  if (to !== undefined && (exclusiveTo ? before(to) : to) < from) return undefined;
  const inbox = INDEXES.message.inbox;
  const conditions = [`${inbox.partitionKey} = :pk`];
  const values: Record<string, unknown> = { ':pk': keys.inbox(scope, subscriberId, ctx).gsi7pk, ':from': from };
  if (to !== undefined) {
    conditions.push(`${inbox.sortKey} BETWEEN :from AND :to`);
    values[':to'] = exclusiveTo ? before(to) : to;
  } else {
    conditions.push(`${inbox.sortKey} >= :from`);
  }
  return {
    TableName: tableName(),
    IndexName: inbox.name,
    KeyConditionExpression: conditions.join(' AND '),
    ScanIndexForward: false,
    ProjectionExpression: '#id',
    ...(filter.FilterExpression && { FilterExpression: filter.FilterExpression }),
    ExpressionAttributeNames: { '#id': '_id', ...filter.ExpressionAttributeNames },
    ExpressionAttributeValues: { ...values, ...filter.ExpressionAttributeValues },
  };
}

/** The largest sort key below `id` among those of its length (BETWEEN is inclusive). */
function before(id: string): string {
  return `${id.slice(0, -1)}${String.fromCharCode(id.charCodeAt(id.length - 1) - 1)}~`;
}

/** The ids of every inbox message matching the filter, a Query page at a time (bulk actions). */
export async function* inboxIdPages(scope: EnvScope, subscriberId: string, ctx: string, filter: InboxFilter): AsyncGenerator<string[]> {
  const query = inboxQuery(scope, subscriberId, ctx, filter, undefined);
  if (!query) return;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(new QueryCommand({ ...query, ExclusiveStartKey: startKey }));
    const ids = (result.Items ?? []).map((item) => item._id as string);
    if (ids.length > 0) yield ids;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}
