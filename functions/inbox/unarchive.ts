import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('unarchiveInboxNotification'), ({ session, params }) =>
  markInboxMessage(session, params.id, 'unarchive'),
);
