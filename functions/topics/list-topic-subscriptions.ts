import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listTopicSubscriptions } from '#lib/topics/list-topic-subscriptions.ts';

export const handler = httpHandler(route('listTopicSubscriptions'), ({ caller, params, query }) =>
  listTopicSubscriptions(caller, params.topicKey, query),
);
