import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { addTopicSubscribersV1 } from '#lib/topics/v1-subscribers.ts';

export const handler = idempotentHttpHandler(route('addTopicSubscribersV1'), ({ caller, params, body }) =>
  addTopicSubscribersV1(caller, params.topicKey, body.subscribers),
);
