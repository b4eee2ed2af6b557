import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { unsnoozeInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('unsnoozeInboxNotification'), ({ session, params }) => unsnoozeInboxMessage(session, params.id));
