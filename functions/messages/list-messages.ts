import { route } from '#infra/routes/messages.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listMessages } from '#lib/messages/list.ts';

export const handler = httpHandler(route('listMessages'), ({ caller, query }) => listMessages(caller, query));
