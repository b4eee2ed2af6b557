import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { Page, PageRequest } from '../store/cursor-page.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { capTotalCount } from '../http/total-count.ts';
import { toPageRequest } from '../http/cursor-list.ts';
import { getTopics } from './repository.ts';
import type { SubscriberSubscriptionList, SubscriberSubscriptionsQuery } from './schemas.ts';
import { toSummary } from './subscriber-lookup.ts';
import {
  getSubscription,
  pageOfOne,
  subscriberSubscriptionsPage,
  subscriptionCount,
  type StoredSubscription,
} from './subscription-repository.ts';
import { belongsTo, toTopicSubscription } from './view.ts';

const EMPTY: SubscriberSubscriptionList = { data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };

/**
 * GET /v2/subscribers/{subscriberId}/subscriptions: a cursor page
 * of the subscriber's subscriptions in creation order; cursors are subscription `_id`s, and
 * `totalCount` comes from the subscriber's counter, never from counting items.
 */
export async function listSubscriberSubscriptions(
  scope: EnvScope,
  subscriberId: string,
  query: SubscriberSubscriptionsQuery,
): Promise<SubscriberSubscriptionList> {
  // Cursors are subscription `_id`s, which are also their gsi1 sort keys.
  const request = toPageRequest(query, (cursor) => (isId(cursor) ? cursor : undefined));
  const subscriber = await getSubscriber(scope, subscriberId);
  if (!subscriber) throw new NotFoundError('Subscriber not found');

  const [page, total] = await pageAndTotal(scope, subscriberId, query.key, request);
  if (!page.cursorFound) return EMPTY;

  const topics = await getTopics(scope, [...new Set(page.items.map((s) => s.topicKey))]);
  const summary = toSummary(subscriber);
  return {
    // Subscriptions whose topic is gone are dropped, as in the reference.
    data: page.items.flatMap((s) => {
      const topic = topics.get(s.topicKey);
      return belongsTo(s, topic) ? [toTopicSubscription(s, topic, summary)] : [];
    }),
    next: page.next,
    previous: page.previous,
    ...capTotalCount(total),
  };
}

/** The key filter is a direct read: a list of at most one, counted as such. */
async function pageAndTotal(
  scope: EnvScope,
  subscriberId: string,
  key: string | undefined,
  request: PageRequest,
): Promise<[Page<StoredSubscription>, number]> {
  if (key === undefined) {
    return Promise.all([subscriberSubscriptionsPage(scope, subscriberId, request), subscriptionCount(scope, subscriberId)]);
  }
  const one = await getSubscription(scope, key, subscriberId);
  return [await pageOfOne(one, (s) => s._id, request), one ? 1 : 0];
}
