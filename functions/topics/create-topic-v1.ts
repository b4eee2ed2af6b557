import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createTopicV1 } from '#lib/topics/v1-topics.ts';

export const handler = idempotentHttpHandler(route('createTopicV1'), ({ caller, body }) => createTopicV1(caller, body));
