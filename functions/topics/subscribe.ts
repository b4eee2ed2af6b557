import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { subscribe } from '#lib/topics/subscribe.ts';

export const handler = httpHandler(route('createTopicSubscriptions'), ({ caller, params, body }) =>
  subscribe(caller, params.topicKey, body.subscriberIds),
);
