import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { markMessagesAs } from '#lib/messages/mark-as.ts';

export const handler = idempotentHttpHandler(route('markMessagesAs'), ({ caller, params, body }) =>
  markMessagesAs(caller, params.subscriberId, body),
);
