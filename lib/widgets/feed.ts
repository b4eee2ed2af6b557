import type { SubscriberSession } from '../auth/session-token.ts';
import { toPageView } from '../messages/list.ts';
import { feedSelection } from '../messages/feed.ts';
import { pageOfMessages } from '../messages/repository.ts';
import type { WidgetFeedQuery } from './schemas.ts';
import { widgetCaller } from './subscriber.ts';
import { widgetMessage } from '../messages/widget-view.ts';

// GET /v1/widgets/notifications/feed: a numbered page of the session subscriber's in-app
// messages, newest first, as `/v1/subscribers/{id}/notifications/feed` answers it (top-level
// `{data, totalCount, hasMore, pageSize, page}`: the clients read the page itself).

export async function widgetFeed(session: SubscriberSession, query: WidgetFeedQuery) {
  const { scope, subscriberId, subscriber } = await widgetCaller(session);
  const { range, filter } = feedSelection(subscriberId, { ...query, feedIds: query.feedIdentifier });
  // Named feeds none of which can match (an empty list): nothing to read.
  const { messages, totalCount } =
    filter.feedIds?.length === 0
      ? { messages: [], totalCount: 0 }
      : await pageOfMessages(scope, range, filter, query.page * query.limit, query.limit);
  const page = toPageView(messages, totalCount, query.page, query.limit);
  return { ...page, data: messages.map((m) => widgetMessage(m, subscriber)) };
}
