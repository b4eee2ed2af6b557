import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';
import { positionOf, type Position } from './cursor.ts';
import type { Subscriber } from './model.ts';
import { subscriberFromItem } from './repository.ts';

// Keyset pages of an environment's subscribers. A page starts at its cursor through
// ExclusiveStartKey, so its cost does not depend on how deep it is: the whole list on gsi1 in
// creation order, or, with an email filter, the email's entries on gsi2 (in subscriberId order).
// Name and phone are filtered while reading; cursors come from returned items, never from
// DynamoDB's LastEvaluatedKey, so filtering leaves no gaps.

export interface SubscriberFilter {
  email?: string | undefined;
  name?: string | undefined;
  phone?: string | undefined;
}

export interface PageRequest {
  after?: Position | undefined;
  before?: Position | undefined;
  limit: number;
  direction: 'ASC' | 'DESC';
}

export interface SubscriberPage {
  items: Subscriber[];
  next: Position | null;
  previous: Position | null;
}

/** Items read per request when a filter may drop some. */
const FILTERED_BATCH = 100;

interface IndexPlan {
  indexName: 'gsi1' | 'gsi2';
  partitionName: 'gsi1pk' | 'gsi2pk';
  partition: string;
  startKey(p: Position): Record<string, unknown>;
  matches(s: Subscriber): boolean;
  batch(want: number): number;
}

export async function querySubscriberPage(scope: EnvScope, filter: SubscriberFilter, page: PageRequest): Promise<SubscriberPage> {
  const plan = planFor(scope, filter);
  const ascending = page.direction === 'ASC';
  if (page.before) {
    // Walk backwards from the cursor, then show the page in the list's order.
    const read = await readFrom(plan, !ascending, page.before, page.limit + 1);
    const items = read.slice(0, page.limit).reverse();
    const last = items.at(-1);
    return {
      items,
      previous: read.length > page.limit && items[0] ? positionOf(items[0]) : null,
      next: last && (await readFrom(plan, ascending, last, 1)).length > 0 ? positionOf(last) : null,
    };
  }
  const read = await readFrom(plan, ascending, page.after, page.limit + 1);
  const items = read.slice(0, page.limit);
  const first = items[0];
  const last = items.at(-1);
  return {
    items,
    next: read.length > page.limit && last ? positionOf(last) : null,
    previous: page.after && first && (await readFrom(plan, !ascending, first, 1)).length > 0 ? positionOf(first) : null,
  };
}

function planFor(scope: EnvScope, filter: SubscriberFilter): IndexPlan {
  const name = filter.name?.toLowerCase();
  const matches = (s: Subscriber) =>
    !s.deleted &&
    (filter.phone === undefined || s.phone === filter.phone) &&
    (name === undefined || `${s.firstName ?? ''} ${s.lastName ?? ''}`.toLowerCase().includes(name));
  const filtered = filter.phone !== undefined || name !== undefined;
  const batch = (want: number) => (filtered ? Math.max(want, FILTERED_BATCH) : want);

  const { email } = filter;
  if (email !== undefined) {
    return {
      indexName: 'gsi2',
      partitionName: 'gsi2pk',
      partition: keys.subscribersByEmail(scope, email).gsi2pk,
      startKey: (p) => ({ ...keys.subscriber(scope, p.subscriberId), ...keys.subscriberEmailIndex(scope, email, p.subscriberId) }),
      matches,
      batch,
    };
  }
  return {
    indexName: 'gsi1',
    partitionName: 'gsi1pk',
    partition: keys.subscribersOfEnvironment(scope).gsi1pk,
    startKey: (p) => ({ ...keys.subscriber(scope, p.subscriberId), ...keys.subscriberListIndex(scope, p.createdAt, p._id) }),
    matches,
    batch,
  };
}

/** Up to `want` matching subscribers strictly after `from`, in the given direction. */
async function readFrom(plan: IndexPlan, forward: boolean, from: Position | undefined, want: number): Promise<Subscriber[]> {
  const out: Subscriber[] = [];
  let ExclusiveStartKey = from && plan.startKey(from);
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: plan.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': plan.partitionName },
        ExpressionAttributeValues: { ':pk': plan.partition },
        ScanIndexForward: forward,
        Limit: plan.batch(want - out.length),
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const subscriber = subscriberFromItem(item);
      if (!plan.matches(subscriber)) continue;
      out.push(subscriber);
      if (out.length === want) return out;
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
