import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listInbox } from '#lib/inbox/list.ts';
import { listRequest } from '#lib/inbox/schemas.ts';

export const handler = httpHandler(route('listInboxNotifications'), ({ session, query }) => listInbox(session, listRequest(query)));
