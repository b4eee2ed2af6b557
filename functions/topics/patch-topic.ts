import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { patchTopic } from '#lib/topics/patch.ts';

export const handler = idempotentHttpHandler(route('patchTopic'), ({ caller, params, body }) => patchTopic(caller, params.topicKey, body));
