import { route } from '#infra/routes/contexts.ts';
import { listContexts } from '#lib/contexts/list.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('listContexts'), ({ caller, query }) => listContexts(caller, query));
