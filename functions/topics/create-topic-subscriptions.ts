import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { subscribe } from '#lib/topics/subscribe.ts';

export const handler = idempotentHttpHandler(route('createTopicSubscriptions'), ({ caller, params, body }) =>
  subscribe(caller, params.topicKey, body),
);
