import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { snoozeInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('snoozeInboxNotification'), ({ session, params, body }) =>
  snoozeInboxMessage(inboxOf(session), params.id, body.snoozeUntil),
);
