import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { batchGet } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { conditionalWrite, writeIf } from '../store/conditions.ts';
import { arrayReader, paginate, queryReader, type Page, type PageRequest, type SortKeyRange } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { indexRange } from '../store/index-keys.ts';
import { deleteExisting } from '../store/update-existing.ts';
import type { Context } from './schemas.ts';

// Storage of contexts: one item per context, keyed by `type:id`, listed in creation order on
// gsi1. The context's own type and id are stored as `contextType` and `contextId` (`type` names
// the kind of item, as on every item); `searchKey` is `type:id` in lower case, for the list's
// search. Every write is one conditional write, so no read-then-write can race.

export const contextKeyOf = (type: string, id: string) => `${type}:${id}`;

export interface ContextFilter {
  type?: string | undefined;
  id?: string | undefined;
  /** Part of `type:id`, any case. */
  search?: string | undefined;
}

/** Read consistently: clients read right after creating. */
export async function getContext(scope: EnvScope, type: string, id: string): Promise<Context | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.context(scope, contextKeyOf(type, id)), ConsistentRead: true }),
  );
  return Item && fromItem(Item);
}

/** The stored contexts of `type:id` keys, found ones only; read consistently, so a change just made is seen. */
export async function getContextsByKeys(scope: EnvScope, contextKeys: readonly string[]): Promise<Context[]> {
  const items = await batchGet(
    contextKeys.map((key) => keys.context(scope, key)),
    undefined,
    { consistent: true },
  );
  return items.map(fromItem);
}

/** Stores a new context; false when one with its type and id exists already. */
export function insertContext(scope: EnvScope, context: Context): Promise<boolean> {
  return writeIf(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: toItem(scope, context), ConditionExpression: 'attribute_not_exists(pk)' })),
  );
}

/** Replaces the data (and sets or, with null, removes the bridgeUrl); undefined when there is no such context. */
export async function updateContext(
  scope: EnvScope,
  type: string,
  id: string,
  change: { data: Record<string, unknown>; bridgeUrl?: string | null | undefined },
  now: string,
): Promise<Context | undefined> {
  const set = ['#data = :data', 'updatedAt = :now', ...(typeof change.bridgeUrl === 'string' ? ['bridgeUrl = :bridgeUrl'] : [])];
  const outcome = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.context(scope, contextKeyOf(type, id)),
        UpdateExpression: `SET ${set.join(', ')}${change.bridgeUrl === null ? ' REMOVE bridgeUrl' : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#data': 'data' },
        ExpressionAttributeValues: {
          ':data': change.data,
          ':now': now,
          ...(typeof change.bridgeUrl === 'string' && { ':bridgeUrl': change.bridgeUrl }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return outcome.written && outcome.output.Attributes ? fromItem(outcome.output.Attributes) : undefined;
}

/** False when there was no such context. */
export const deleteContext = (scope: EnvScope, type: string, id: string): Promise<boolean> =>
  deleteExisting(keys.context(scope, contextKeyOf(type, id)));

/** A page of the environment's contexts in creation order; cursors are gsi1 sort-key values. */
export async function contextsPage(scope: EnvScope, request: PageRequest, filter: ContextFilter): Promise<Page<Context>> {
  const sortKeyOf = (item: Record<string, unknown>) => item[INDEXES.context.list.sortKey] as string;
  let page: Page<Record<string, unknown>>;
  if (filter.type !== undefined && filter.id !== undefined) {
    // Both given name one context: a direct read, paged by the same cursor rules.
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.context(scope, contextKeyOf(filter.type, filter.id)) }),
    );
    const matches = Item && matchesSearch(Item, filter.search) ? [Item] : [];
    page = await paginate(arrayReader(matches, sortKeyOf), sortKeyOf, request);
  } else {
    page = await paginate(queryReader(contextsRange(scope, filter)), sortKeyOf, request);
  }
  return { ...page, items: page.items.map(fromItem) };
}

/** The environment's contexts matching `filter`, in creation order: what the list pages and its total counts. */
export function contextsRange(scope: EnvScope, filter: ContextFilter): SortKeyRange {
  const expression = filterExpression(filter);
  return indexRange(INDEXES.context.list, keys.contextsOfEnvironment(scope).gsi1pk, expression || undefined);
}

function filterExpression(filter: ContextFilter) {
  const terms: string[] = [];
  const values: Record<string, unknown> = {};
  if (filter.type !== undefined) {
    terms.push('contextType = :type');
    values[':type'] = filter.type;
  }
  if (filter.id !== undefined) {
    terms.push('contextId = :id');
    values[':id'] = filter.id;
  }
  if (filter.search !== undefined) {
    terms.push('contains(searchKey, :search)');
    values[':search'] = filter.search.toLowerCase();
  }
  return terms.length === 0 ? undefined : { expression: terms.join(' AND '), values };
}

const matchesSearch = (item: Record<string, unknown>, search: string | undefined) =>
  search === undefined || String(item.searchKey ?? '').includes(search.toLowerCase());

function toItem(scope: EnvScope, context: Context): Record<string, unknown> {
  const key = contextKeyOf(context.type, context.id);
  return {
    ...keys.context(scope, key),
    ...keys.contextListIndex(scope, context.createdAt, key),
    type: 'Context',
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    contextType: context.type,
    contextId: context.id,
    searchKey: key.toLowerCase(),
    data: context.data,
    ...(context.bridgeUrl !== undefined && { bridgeUrl: context.bridgeUrl }),
    createdAt: context.createdAt,
    updatedAt: context.updatedAt,
  };
}

function fromItem(item: Record<string, unknown>): Context {
  return {
    type: item.contextType as string,
    id: item.contextId as string,
    data: (item.data as Record<string, unknown> | undefined) ?? {},
    ...(typeof item.bridgeUrl === 'string' && { bridgeUrl: item.bridgeUrl }),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
