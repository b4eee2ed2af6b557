import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { patchSubscription } from '#lib/topics/patch.ts';

export const handler = idempotentHttpHandler(route('patchTopicSubscription'), ({ caller, params, body }) =>
  patchSubscription(caller, params.topicKey, params.identifier, body),
);
