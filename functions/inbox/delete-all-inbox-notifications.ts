import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { bulkInboxAction } from '#lib/inbox/bulk.ts';

export const handler = httpHandler(route('deleteAllInboxNotifications'), ({ session, body }) =>
  bulkInboxAction(inboxOf(session), 'delete', body),
);
