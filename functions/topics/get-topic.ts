import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { requireTopic } from '#lib/topics/get.ts';

export const handler = httpHandler(route('getTopic'), ({ caller, params }) => requireTopic(caller, params.topicKey));
