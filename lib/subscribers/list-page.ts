import { INDEXES, keys } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { offsetPage } from '../store/offset-page.ts';
import type { Subscriber } from './model.ts';
import { subscriberFromItem } from './repository.ts';
import type { SubscriberPageQuery } from './schemas.ts';
import { toSubscriberView } from './view.ts';

export interface SubscriberPage {
  page: number;
  hasMore: boolean;
  pageSize: number;
  data: Subscriber[];
}

/**
 * The legacy API's list (`GET /v1/subscribers`): the environment's subscribers in creation order,
 * a numbered page at a time, from the same index as the v2 list (gsi1 projects whole items, so a
 * page needs no further read). `hasMore` is exact.
 */
export async function pageOfSubscribers(scope: EnvScope, { page, limit }: SubscriberPageQuery): Promise<SubscriberPage> {
  const { gsi1pk } = keys.subscribersOfEnvironment(scope);
  const { items, hasMore } = await offsetPage(
    {
      IndexName: INDEXES.subscriber.list.name,
      KeyConditionExpression: onIndex(INDEXES.subscriber.list),
      ExpressionAttributeValues: { ':pk': gsi1pk },
      ScanIndexForward: true,
    },
    page * limit,
    limit,
  );
  return { page, hasMore, pageSize: limit, data: items.map((item) => toSubscriberView(subscriberFromItem(item))) };
}
