import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { removeTopicSubscribersV1 } from '#lib/topics/v1-subscribers.ts';

export const handler = idempotentHttpHandler(route('removeTopicSubscribersV1'), ({ caller, params, body }) =>
  removeTopicSubscribersV1(caller, params.topicKey, body.subscribers),
);
