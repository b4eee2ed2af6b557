import { notificationFromItem } from '../pipeline/notification-store.ts';
import type { StoredNotification } from '../pipeline/model.ts';
import { batchGet } from '../store/batch.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll } from '../store/query-pages.ts';
import { activityFilter } from './filters.ts';
import type { ActivityList, ListNotificationsQuery } from './schemas.ts';
import { dayByDay, ofSubscribers, ofTransactions, type NotificationRef, type RefSource } from './sources.ts';
import { toActivityNotifications } from './view.ts';
import { timeWindow, type TimeWindow } from './window.ts';

// GET /v1/notifications: the environment's notifications, newest first. subscriberIds, emails
// (and the deprecated search) are OR-ed into one set of subscribers; every other filter is
// AND-ed. The access path is chosen by the most selective key the query gives: the transactions'
// partitions, else each subscriber's activity index, else the environment's activity day by day.
// Paging is by offset, as the reference's: the matches before the page are counted off (as keys
// only), then the page is read whole, and one match more decides `hasMore` exactly.

export async function listNotifications(scope: EnvScope, query: ListNotificationsQuery): Promise<ActivityList> {
  const { page, limit } = query;
  const window = timeWindow(query.after, query.before, new Date(), scope.environmentId);
  const subscriberIds = await subscribersOf(scope, query);
  // As the reference: subscriber filters that name nobody give the first, empty page.
  if (subscriberIds?.length === 0) return { page: 0, hasMore: false, pageSize: limit, data: [] };
  if (!window) return { page, hasMore: false, pageSize: limit, data: [] };

  const source = await sourceOf(scope, query, window, subscriberIds);
  const skip = page * limit;
  const wanted = skip + limit + 1;
  const taken: NotificationRef[] = [];
  for (let consumed = 0; consumed < wanted; consumed++) {
    const ref = await source.next(wanted - consumed);
    if (!ref) break;
    if (consumed >= skip) taken.push(ref);
  }
  const notifications = await load(taken.slice(0, limit));
  return { page, hasMore: taken.length > limit, pageSize: limit, data: await toActivityNotifications(scope, notifications) };
}

/**
 * The subscriberIds the subscriber filters name, or undefined when there are none. Emails are
 * looked up in the email index; `search` is taken as an exact subscriberId or email (the
 * reference also matched parts of emails, which no index can answer).
 */
async function subscribersOf(scope: EnvScope, query: ListNotificationsQuery): Promise<string[] | undefined> {
  const emails = [...(query.emails ?? []), ...(query.search !== undefined ? [query.search] : [])];
  const named = [...(query.subscriberIds ?? []), ...(query.search !== undefined ? [query.search] : [])];
  if (emails.length === 0 && named.length === 0) return undefined;
  const byEmail = await Promise.all([...new Set(emails)].map((email) => subscriberIdsWithEmail(scope, email)));
  return [...new Set([...named, ...byEmail.flat()])];
}

async function subscriberIdsWithEmail(scope: EnvScope, email: string): Promise<string[]> {
  const items = await queryAll({
    IndexName: INDEXES.subscriber.byEmail.name,
    KeyConditionExpression: onIndex(INDEXES.subscriber.byEmail),
    ExpressionAttributeValues: { ':pk': keys.subscribersByEmail(scope, email).gsi2pk },
    ProjectionExpression: 'subscriberId',
  });
  return items.map((item) => item.subscriberId as string);
}

function sourceOf(
  scope: EnvScope,
  query: ListNotificationsQuery,
  window: TimeWindow,
  subscriberIds: string[] | undefined,
): Promise<RefSource> | RefSource {
  if (query.transactionId?.length) {
    return ofTransactions(scope, query.transactionId, activityFilter(query, window, subscriberIds ? { subscriberIds } : {}));
  }
  if (subscriberIds) return ofSubscribers(scope, subscriberIds, window, activityFilter(query, window));
  return dayByDay(scope, window, activityFilter(query, window));
}

/** The page's notifications, whole, in the order of `refs`. */
async function load(refs: NotificationRef[]): Promise<StoredNotification[]> {
  if (refs.length === 0) return [];
  const items = await batchGet(refs.map(({ pk, sk }) => ({ pk, sk })));
  const byId = new Map(
    items.map((item) => {
      const { notification } = notificationFromItem(item);
      return [notification._id, notification] as const;
    }),
  );
  return refs.flatMap((ref) => byId.get(ref._id) ?? []);
}
