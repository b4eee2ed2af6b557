import { route } from '#infra/routes/topics.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { upsertTopic } from '#lib/topics/upsert.ts';

export const handler = idempotentHttpHandler(route('upsertTopic'), ({ caller, body }) => upsertTopic(caller, body));
