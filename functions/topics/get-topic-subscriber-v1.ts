import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getTopicSubscriberV1 } from '#lib/topics/v1-subscribers.ts';

export const handler = httpHandler(route('getTopicSubscriberV1'), ({ caller, params }) =>
  getTopicSubscriberV1(caller, params.topicKey, params.externalSubscriberId),
);
