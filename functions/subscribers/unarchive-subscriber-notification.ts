import { route } from '#infra/routes/subscriber-notifications.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { markInboxMessage } from '#lib/inbox/actions.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = idempotentHttpHandler(route('unarchiveSubscriberNotification'), ({ caller, params, query }) =>
  markInboxMessage(inboxOfSubscriber(caller, params.subscriberId, query.contextKeys), params.notificationId, 'unarchive'),
);
