import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { markAllMessagesAs } from '#lib/messages/mark-all.ts';

export const handler = idempotentHttpHandler(route('markAllMessages'), ({ caller, params, body }) =>
  markAllMessagesAs(caller, params.subscriberId, body),
);
