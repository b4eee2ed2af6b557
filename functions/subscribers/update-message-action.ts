import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateMessageAction } from '#lib/messages/action.ts';

export const handler = idempotentHttpHandler(route('updateMessageAction'), ({ caller, params, body }) =>
  updateMessageAction(caller, params.subscriberId, params.messageId, params.type, body),
);
