import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { unsubscribe } from '#lib/topics/unsubscribe.ts';

export const handler = httpHandler(route('deleteTopicSubscriptions'), ({ caller, params, body }) =>
  unsubscribe(caller, params.topicKey, body.subscriberIds),
);
