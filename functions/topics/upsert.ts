import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { upsertTopic } from '#lib/topics/upsert.ts';

export const handler = httpHandler(route('upsertTopic'), ({ caller, body }) => upsertTopic(caller, body));
