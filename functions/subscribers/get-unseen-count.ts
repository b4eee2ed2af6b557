import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getUnseenCount } from '#lib/messages/unseen-count.ts';

export const handler = httpHandler(route('getUnseenCount'), ({ caller, params, query }) =>
  getUnseenCount(caller, params.subscriberId, query),
);
