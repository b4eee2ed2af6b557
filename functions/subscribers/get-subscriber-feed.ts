import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getSubscriberFeed } from '#lib/messages/feed.ts';

export const handler = httpHandler(route('getSubscriberFeed'), ({ caller, params, query }) =>
  getSubscriberFeed(caller, params.subscriberId, query),
);
