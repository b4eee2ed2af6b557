import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { unsnoozeInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('unsnoozeInboxNotification'), ({ session, params }) =>
  unsnoozeInboxMessage(inboxOf(session), params.id),
);
