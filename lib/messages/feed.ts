import type { EnvScope } from '../scope.ts';
import { toPageView, type MessagePageView } from './list.ts';
import { pageOfMessages, type MessageFilter, type MessageRange } from './repository.ts';
import type { FeedQuery } from './schemas.ts';
import { assertSubscriberExists } from './subscriber.ts';

/** A subscriber's in-app inbox, newest first (what it reads: feedSelection). */
export async function getSubscriberFeed(scope: EnvScope, subscriberId: string, query: FeedQuery): Promise<MessagePageView> {
  await assertSubscriberExists(scope, subscriberId);
  const { range, filter } = feedSelection(subscriberId, query);
  const { messages, totalCount } = await pageOfMessages(scope, range, filter, query.page * query.limit, query.limit);
  return toPageView(messages, totalCount, query.page, query.limit);
}

/** What a feed reads: the sparse unseen index for exactly the unseen ones, else the subscriber's in-app messages filtered. */
export function feedSelection(
  subscriberId: string,
  query: { seen?: boolean | undefined; read?: boolean | undefined; payload?: MessageFilter['payload']; feedIds?: string[] | undefined },
): { range: MessageRange; filter: MessageFilter } {
  const unseenOnly = query.seen === false;
  return {
    range: unseenOnly ? { of: 'unseenInApp', subscriberId } : { of: 'subscriber', subscriberId },
    filter: {
      ...(!unseenOnly && { channel: 'in_app' as const }),
      ...(query.seen === true && { seen: true }),
      ...(query.read !== undefined && { read: query.read }),
      ...(query.payload !== undefined && { payload: query.payload }),
      ...(query.feedIds !== undefined && { feedIds: query.feedIds }),
    },
  };
}
