import { route } from '#infra/routes/subscriber-notifications.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { bulkInboxAction } from '#lib/inbox/bulk.ts';
import { inboxOfSubscriber } from '#lib/inbox/inbox.ts';

export const handler = idempotentHttpHandler(route('deleteAllSubscriberNotifications'), ({ caller, params, body }) =>
  bulkInboxAction(inboxOfSubscriber(caller, params.subscriberId, body.contextKeys), 'delete', body),
);
