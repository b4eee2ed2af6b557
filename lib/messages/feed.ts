import type { EnvScope } from '../scope.ts';
import { toPageView, type MessagePageView } from './list.ts';
import { pageOfMessages, type MessageFilter, type MessageRange } from './repository.ts';
import type { FeedQuery } from './schemas.ts';
import { assertSubscriberExists } from './subscriber.ts';

/**
 * A subscriber's in-app inbox, newest first. The unseen feed reads the sparse unseen index,
 * which holds only those messages; any other feed walks the subscriber's messages with filters.
 */
export async function getSubscriberFeed(scope: EnvScope, subscriberId: string, query: FeedQuery): Promise<MessagePageView> {
  await assertSubscriberExists(scope, subscriberId);
  const unseenOnly = query.seen === false;
  const range: MessageRange = unseenOnly ? { of: 'unseenInApp', subscriberId } : { of: 'subscriber', subscriberId };
  const filter: MessageFilter = {
    ...(!unseenOnly && { channel: 'in_app' as const }),
    ...(query.seen === true && { seen: true }),
    ...(query.read !== undefined && { read: query.read }),
    ...(query.payload !== undefined && { payload: query.payload }),
  };
  const { messages, totalCount } = await pageOfMessages(scope, range, filter, query.page * query.limit, query.limit);
  return toPageView(messages, totalCount, query.page, query.limit);
}
