import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { deleteInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('deleteInboxNotification'), ({ session, params }) =>
  deleteInboxMessage(inboxOf(session), params.id),
);
