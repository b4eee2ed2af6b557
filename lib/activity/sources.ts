import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { queryPages } from '../store/query-pages.ts';
import { merged, QuerySource, type Ref, type RefQueryInput, type RefSource } from '../store/ref-source.ts';
import { notificationShardsOf } from '../pipeline/trigger-store.ts';
import type { Filter } from './filters.ts';
import { daysOf, highestIdAt, lowestIdAt, type TimeWindow } from './window.ts';

// The notifications that match a query, newest first, read lazily (lib/store/ref-source.ts): the
// feed asks for exactly as many as it needs (the skipped ones, the page and one more), so no day,
// subscriber or page is read beyond that. References carry only the table key and the id, so
// skipping deep into the feed moves keys, never whole items. The two indexes (gsi3, gsi4) hold
// only those and the attributes the filters read (ACTIVITY_INDEX_ATTRIBUTES). A day of gsi3 is
// ACTIVITY_DAY_SHARDS index partitions, read together and merged by id.

export type NotificationRef = Ref;
export type { RefSource };

/** A transaction's shards read at once. */
const SHARD_READ_CONCURRENCY = 16;
const PROJECTION = { ProjectionExpression: '#pk, #sk, #id', names: { '#pk': 'pk', '#sk': 'sk', '#id': '_id' } };

function withFilter(input: RefQueryInput, filter: Filter): RefQueryInput {
  const names = { ...input.ExpressionAttributeNames, ...filter.ExpressionAttributeNames };
  return {
    ...input,
    ...(filter.FilterExpression && { FilterExpression: filter.FilterExpression }),
    ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...filter.ExpressionAttributeValues },
  };
}

const toRef = (item: Record<string, unknown>): NotificationRef => ({
  pk: item.pk as string,
  sk: item.sk as string,
  _id: item._id as string,
});

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
          // The day's shards hold its notifications evenly (by a hash of the id).
          const shards = keys.activityDay(scope, day).map(
            ({ gsi3pk }) =>
              new QuerySource(
                withFilter(
                  {
                    IndexName: INDEXES.notification.byDay.name,
                    KeyConditionExpression: onIndex(INDEXES.notification.byDay, 'BETWEEN :lo AND :hi'),
                    ExpressionAttributeValues: { ':pk': gsi3pk, ...bounds },
                    ScanIndexForward: false,
                  },
                  filter,
                ),
              ),
          );
          current = merged(shards, { spread: true });
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
            IndexName: INDEXES.notification.ofSubscriber.name,
            KeyConditionExpression: onIndex(INDEXES.notification.ofSubscriber, 'BETWEEN :lo AND :hi'),
            ExpressionAttributeValues: { ':pk': keys.activityOfSubscriber(scope, subscriberId).gsi4pk, ...bounds },
            ScanIndexForward: false,
          },
          filter,
        ),
      ),
  );
  return merged(sources);
}

/**
 * The notifications of the given transactions. A transaction's partitions are keyed by
 * subscriber, not time, so its matches are read whole (keys only) and sorted; a transaction holds
 * one notification per recipient, so this is bounded by the largest fan-out. Each transaction's
 * trigger says over how many partitions its notifications are (one read of the trigger), and
 * every one is queried.
 */
export async function ofTransactions(scope: EnvScope, transactionIds: readonly string[], filter: Filter): Promise<RefSource> {
  const refs = new Map<string, NotificationRef>();
  const partitions = (
    await Promise.all(
      [...new Set(transactionIds)].map(async (transactionId) =>
        keys.notificationsOfTransaction(scope, transactionId, await notificationShardsOf(scope, transactionId)),
      ),
    )
  ).flat();
  await mapConcurrently(partitions, SHARD_READ_CONCURRENCY, async ({ pk, skPrefix }) => {
    const input = withFilter(
      { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix } },
      filter,
    );
    const names = { ...input.ExpressionAttributeNames, ...PROJECTION.names };
    for await (const page of queryPages({
      ...input,
      ExpressionAttributeNames: names,
      ProjectionExpression: PROJECTION.ProjectionExpression,
    })) {
      for (const item of page) refs.set(item._id as string, toRef(item));
    }
  });
  const sorted = [...refs.values()].sort((a, b) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
  let position = 0;
  return { next: async () => sorted[position++] };
}
