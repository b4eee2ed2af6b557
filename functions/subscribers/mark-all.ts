import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { markAllMessagesAs } from '#lib/messages/mark-all.ts';

export const handler = httpHandler(route('markAllMessages'), ({ caller, params, body }) =>
  markAllMessagesAs(caller, params.subscriberId, body),
);
