import { route } from '#infra/routes/subscriber-notifications.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { actOnInboxMessage } from '#lib/inbox/actions.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = idempotentHttpHandler(route('revertSubscriberNotificationAction'), ({ caller, params, query }) =>
  actOnInboxMessage(inboxOfSubscriber(caller, params.subscriberId, query.contextKeys), params.notificationId, params.actionType, false),
);
