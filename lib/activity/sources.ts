import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope, type Key } from '../store/keys.ts';
import { queryPages } from '../store/query-pages.ts';
import type { Filter } from './filters.ts';
import { daysOf, highestIdAt, lowestIdAt, type TimeWindow } from './window.ts';

// The notifications that match a query, newest first, read lazily: a source hands out one
// reference at a time and reads the next page only when asked for more. The feed asks for
// exactly as many as it needs (the skipped ones, the page and one more), so no day, subscriber
// or page is read beyond that. References carry only the table key and the id: queries project
// nothing else, so skipping deep into the feed moves keys, never whole items. The two indexes
// (gsi3, gsi4) hold only those and the attributes the filters read (ACTIVITY_INDEX_ATTRIBUTES).

export interface NotificationRef extends Key {
  _id: string;
}

export interface RefSource {
  /** The next match, newest first; `wanted` = how many more the caller may still take (a read-size hint). */
  next(wanted: number): Promise<NotificationRef | undefined>;
}

const PROJECTION = { ProjectionExpression: '#pk, #sk, #id', names: { '#pk': 'pk', '#sk': 'sk', '#id': '_id' } };
/** Items a single Query may evaluate; also what one page of references may hold. */
const MAX_PAGE = 1000;
/** Assumed share of items the filters keep, before a first page has shown it. */
const MIN_SELECTIVITY = 0.02;

type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit' | 'ProjectionExpression'>;

function withFilter(input: QueryInput, filter: Filter): QueryInput {
  return {
    ...input,
    ...(filter.FilterExpression && { FilterExpression: filter.FilterExpression }),
    ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...filter.ExpressionAttributeNames, ...PROJECTION.names },
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...filter.ExpressionAttributeValues },
  };
}

const toRef = (item: Record<string, unknown>): NotificationRef => ({
  pk: item.pk as string,
  sk: item.sk as string,
  _id: item._id as string,
});

/**
 * One Query read page by page. `Limit` counts items before the filter, so each page is sized
 * from what is still wanted and the share of items earlier pages kept: a selective filter reads
 * larger pages instead of many small ones, an unfiltered read takes only what it needs.
 */
class QuerySource implements RefSource {
  private buffer: NotificationRef[] = [];
  private lastKey: Record<string, unknown> | undefined;
  private done = false;
  private evaluated = 0;
  private kept = 0;

  constructor(private readonly input: QueryInput) {}

  async next(wanted: number): Promise<NotificationRef | undefined> {
    while (this.buffer.length === 0 && !this.done) await this.read(wanted);
    return this.buffer.shift();
  }

  private async read(wanted: number): Promise<void> {
    const selectivity = this.evaluated === 0 ? 1 : Math.max(this.kept / this.evaluated, MIN_SELECTIVITY);
    const limit = Math.min(MAX_PAGE, Math.max(1, Math.ceil(wanted / selectivity)));
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...this.input,
        ProjectionExpression: PROJECTION.ProjectionExpression,
        Limit: limit,
        ...(this.lastKey && { ExclusiveStartKey: this.lastKey }),
      }),
    );
    const items = page.Items ?? [];
    this.evaluated += page.ScannedCount ?? items.length;
    this.kept += items.length;
    this.buffer.push(...items.map(toRef));
    this.lastKey = page.LastEvaluatedKey;
    this.done = this.lastKey === undefined;
  }
}

/** The environment's activity day by day (gsi3), from the window's last day back to its first. */
export function dayByDay(scope: EnvScope, window: TimeWindow, filter: Filter): RefSource {
  const days = daysOf(window);
  let current: RefSource | undefined;
  const bounds = { ':lo': lowestIdAt(window.from), ':hi': highestIdAt(window.to) };
  return {
    async next(wanted) {
      for (;;) {
        if (!current) {
          const day = days.shift();
          if (day === undefined) return undefined;
          current = new QuerySource(
            withFilter(
              {
                IndexName: 'gsi3',
                KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk BETWEEN :lo AND :hi',
                ExpressionAttributeValues: { ':pk': keys.activityDay(scope, day).gsi3pk, ...bounds },
                ScanIndexForward: false,
              },
              filter,
            ),
          );
        }
        const ref = await current.next(wanted);
        if (ref) return ref;
        current = undefined;
      }
    },
  };
}

/** The activity of each subscriber (gsi4), merged newest first. */
export function ofSubscribers(scope: EnvScope, subscriberIds: readonly string[], window: TimeWindow, filter: Filter): RefSource {
  const bounds = { ':lo': lowestIdAt(window.from), ':hi': highestIdAt(window.to) };
  const sources = subscriberIds.map(
    (subscriberId) =>
      new QuerySource(
        withFilter(
          {
            IndexName: 'gsi4',
            KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk BETWEEN :lo AND :hi',
            ExpressionAttributeValues: { ':pk': keys.activityOfSubscriber(scope, subscriberId).gsi4pk, ...bounds },
            ScanIndexForward: false,
          },
          filter,
        ),
      ),
  );
  return merged(sources);
}

/** Several newest-first sources as one: each time, the newest of their heads. */
function merged(sources: RefSource[]): RefSource {
  const heads: (NotificationRef | undefined)[] = [];
  const loaded: boolean[] = sources.map(() => false);
  return {
    async next(wanted) {
      // Any one source may supply all that is wanted, so each is asked with the same hint.
      await Promise.all(
        sources.map(async (source, i) => {
          if (loaded[i]) return;
          heads[i] = await source.next(wanted);
          loaded[i] = true;
        }),
      );
      let newest = -1;
      heads.forEach((head, i) => {
        if (head && (newest < 0 || head._id > heads[newest]!._id)) newest = i;
      });
      if (newest < 0) return undefined;
      const ref = heads[newest];
      loaded[newest] = false;
      return ref;
    },
  };
}

/**
 * The notifications of the given transactions. A transaction's partition is keyed by subscriber,
 * not time, so its matches are read whole (keys only) and sorted; a transaction holds one
 * notification per recipient, so this is bounded by the largest fan-out.
 */
export async function ofTransactions(scope: EnvScope, transactionIds: readonly string[], filter: Filter): Promise<RefSource> {
  const refs = new Map<string, NotificationRef>();
  await Promise.all(
    [...new Set(transactionIds)].map(async (transactionId) => {
      const { pk, skPrefix } = keys.notificationsOfTransaction(scope, transactionId);
      const input = withFilter(
        { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix } },
        filter,
      );
      for await (const page of queryPages({ ...input, ProjectionExpression: PROJECTION.ProjectionExpression })) {
        for (const item of page) refs.set(item._id as string, toRef(item));
      }
    }),
  );
  const sorted = [...refs.values()].sort((a, b) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
  let position = 0;
  return { next: async () => sorted[position++] };
}
