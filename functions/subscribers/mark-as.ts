import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markMessagesAs } from '#lib/messages/mark-as.ts';

export const handler = httpHandler(route('markMessagesAs'), ({ caller, params, body }) =>
  markMessagesAs(caller, params.subscriberId, body),
);
