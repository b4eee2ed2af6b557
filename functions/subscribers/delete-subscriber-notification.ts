import { route } from '#infra/routes/subscriber-notifications.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { deleteInboxMessage } from '#lib/inbox/actions.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = httpHandler(route('deleteSubscriberNotification'), ({ caller, params, query }) =>
  deleteInboxMessage(inboxOfSubscriber(caller, params.subscriberId, query.contextKeys), params.notificationId),
);
