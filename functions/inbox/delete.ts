import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { deleteInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('deleteInboxNotification'), ({ session, params }) => deleteInboxMessage(session, params.id));
