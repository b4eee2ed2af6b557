import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listTopicsV1 } from '#lib/topics/v1-topics.ts';

export const handler = httpHandler(route('listTopicsV1'), ({ caller, query }) => listTopicsV1(caller, query));
