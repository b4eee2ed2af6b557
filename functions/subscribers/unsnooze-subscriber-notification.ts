import { route } from '#infra/routes/subscriber-notifications.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { unsnoozeInboxMessage } from '#lib/inbox/actions.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = idempotentHttpHandler(route('unsnoozeSubscriberNotification'), ({ caller, params, query }) =>
  unsnoozeInboxMessage(inboxOfSubscriber(caller, params.subscriberId, query.contextKeys), params.notificationId),
);
