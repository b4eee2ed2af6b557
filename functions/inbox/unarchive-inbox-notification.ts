import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { markInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('unarchiveInboxNotification'), ({ session, params }) =>
  markInboxMessage(inboxOf(session), params.id, 'unarchive'),
);
