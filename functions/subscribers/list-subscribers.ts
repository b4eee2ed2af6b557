import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listSubscribers } from '#lib/subscribers/list.ts';

export const handler = httpHandler(route('listSubscribers'), ({ caller, query }) => listSubscribers(caller, query));
