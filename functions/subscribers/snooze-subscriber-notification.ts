import { route } from '#infra/routes/subscriber-notifications.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { snoozeInboxMessage } from '#lib/inbox/actions.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = idempotentHttpHandler(route('snoozeSubscriberNotification'), ({ caller, params, query, body }) =>
  snoozeInboxMessage(inboxOfSubscriber(caller, params.subscriberId, query.contextKeys), params.notificationId, body.snoozeUntil),
);
