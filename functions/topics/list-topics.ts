import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listTopics } from '#lib/topics/list.ts';

export const handler = httpHandler(route('listTopics'), ({ caller, query }) => listTopics(caller, query));
