import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { snoozeInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('snoozeInboxNotification'), ({ session, params, body }) =>
  snoozeInboxMessage(session, params.id, body.snoozeUntil),
);
