import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getSubscriptionByIdentifier } from '#lib/topics/patch.ts';

export const handler = httpHandler(route('getTopicSubscription'), ({ caller, params }) =>
  getSubscriptionByIdentifier(caller, params.topicKey, params.identifier),
);
