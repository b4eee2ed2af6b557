import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { listInbox } from '#lib/inbox/list.ts';
import { listRequest } from '#lib/inbox/schemas.ts';

export const handler = httpHandler(route('listInboxNotifications'), ({ session, query }) =>
  listInbox(inboxOf(session), listRequest(query)),
);
