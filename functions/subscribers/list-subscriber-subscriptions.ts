import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listSubscriberSubscriptions } from '#lib/topics/list-subscriber-subscriptions.ts';

export const handler = httpHandler(route('listSubscriberSubscriptions'), ({ caller, params, query }) =>
  listSubscriberSubscriptions(caller, params.subscriberId, query),
);
