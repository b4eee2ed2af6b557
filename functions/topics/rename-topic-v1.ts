import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { renameTopicV1 } from '#lib/topics/v1-topics.ts';

export const handler = idempotentHttpHandler(route('renameTopicV1'), ({ caller, params, body }) =>
  renameTopicV1(caller, params.topicKey, body.name),
);
