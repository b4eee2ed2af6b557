import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchGet } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { conditionalWrite, writeIf } from '../store/conditions.ts';
import { countRange } from '../store/count-range.ts';
import { arrayReader, paginate, queryReader, type Page, type PageRequest, type SortKeyRange } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { indexRange, onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { numberedPage } from '../store/numbered-page.ts';
import type { Topic } from './schemas.ts';

// Storage of topics: one item per topic, keyed by its key, listed in creation order on gsi1.
// `nameLower` exists only for the case-insensitive name filter of the list.

export async function getTopic(scope: EnvScope, key: string): Promise<Topic | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.topic(scope, key) }));
  return Item && fromItem(Item);
}

/** The topics found for `topicKeys`, by key. */
export async function getTopics(scope: EnvScope, topicKeys: string[]): Promise<Map<string, Topic>> {
  const items = await batchGet(topicKeys.map((key) => keys.topic(scope, key)));
  return new Map(items.map((item) => [item.key as string, fromItem(item)]));
}

/** Stores a new topic; undefined when one with this key exists already. */
export async function createTopic(scope: EnvScope, topic: Topic): Promise<Topic | undefined> {
  const created = await writeIf(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: toItem(scope, topic), ConditionExpression: 'attribute_not_exists(pk)' })),
  );
  return created ? topic : undefined;
}

/** Renames an existing topic; undefined when it does not exist (any more). */
export async function renameTopic(scope: EnvScope, key: string, name: string, now: string): Promise<Topic | undefined> {
  const outcome = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.topic(scope, key),
        UpdateExpression: 'SET #name = :name, nameLower = :lower, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': name, ':lower': name.toLowerCase(), ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return outcome.written && outcome.output.Attributes ? fromItem(outcome.output.Attributes) : undefined;
}

export async function deleteTopicItem(scope: EnvScope, key: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.topic(scope, key) }));
}

/** A page of the environment's topics in creation order; cursors are gsi1 sort-key values. */
export async function topicsPage(scope: EnvScope, request: PageRequest, filter: TopicFilter): Promise<Page<Topic & { listKey: string }>> {
  const needle = filter.nameContains?.toLowerCase();
  const page =
    filter.key !== undefined
      ? await pageOfOne(scope, filter.key, needle, request)
      : await paginate(queryReader(topicsRange(scope, needle)), (item) => item[INDEXES.topic.list.sortKey] as string, request);
  return { ...page, items: page.items.map((item) => ({ ...fromItem(item), listKey: item[INDEXES.topic.list.sortKey] as string })) };
}

export interface TopicFilter {
  key?: string | undefined;
  nameContains?: string | undefined;
}

/** How many topics the filter matches, exact up to `upTo` (a key is one read; otherwise counted on gsi1). */
export async function countTopics(scope: EnvScope, filter: TopicFilter, upTo: number): Promise<number> {
  const needle = filter.nameContains?.toLowerCase();
  if (filter.key !== undefined) return (await matchOfKey(scope, filter.key, needle)).length;
  return countRange(topicsRange(scope, needle), upTo);
}

/** The environment's topics on their list index, in creation order, those whose name contains `needle` when given. */
function topicsRange(scope: EnvScope, needle: string | undefined): SortKeyRange {
  return indexRange(
    INDEXES.topic.list,
    keys.topicsOfEnvironment(scope).gsi1pk,
    needle !== undefined ? { expression: 'contains(nameLower, :needle)', values: { ':needle': needle } } : undefined,
  );
}

/**
 * Page `page` (from 0) of the environment's topics in creation order, and how many topics there
 * are (counted at most `countAhead` past the page).
 */
export async function topicsByPage(
  scope: EnvScope,
  page: number,
  pageSize: number,
  countAhead: number,
): Promise<{ topics: Topic[]; totalCount: number }> {
  const result = await numberedPage(
    {
      IndexName: INDEXES.topic.list.name,
      KeyConditionExpression: onIndex(INDEXES.topic.list),
      ExpressionAttributeValues: { ':pk': keys.topicsOfEnvironment(scope).gsi1pk },
    },
    page,
    pageSize,
    { countAhead },
  );
  return { topics: result.items.map(fromItem), totalCount: result.totalCount };
}

/** The key filter is a direct read; the cursor rules still apply to its list of at most one. */
async function matchOfKey(scope: EnvScope, key: string, needle: string | undefined): Promise<Record<string, unknown>[]> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.topic(scope, key) }));
  return Item && (needle === undefined || String(Item.nameLower ?? '').includes(needle)) ? [Item] : [];
}

async function pageOfOne(scope: EnvScope, key: string, needle: string | undefined, request: PageRequest) {
  const matches = await matchOfKey(scope, key, needle);
  const sortKeyOf = (item: Record<string, unknown>) => item[INDEXES.topic.list.sortKey] as string;
  return paginate(arrayReader(matches, sortKeyOf), sortKeyOf, request);
}

function toItem(scope: EnvScope, topic: Topic): Record<string, unknown> {
  return {
    ...keys.topic(scope, topic.key),
    ...keys.topicListIndex(scope, topic.createdAt, topic._id),
    type: 'Topic',
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    ...topic,
    ...(topic.name !== undefined && { nameLower: topic.name.toLowerCase() }),
  };
}

function fromItem(item: Record<string, unknown>): Topic {
  return {
    _id: item._id as string,
    key: item.key as string,
    ...(typeof item.name === 'string' && { name: item.name }),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
