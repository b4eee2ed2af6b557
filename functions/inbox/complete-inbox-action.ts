import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { inboxOf } from '#lib/inbox/inbox.ts';
import { actOnInboxMessage } from '#lib/inbox/actions.ts';

export const handler = httpHandler(route('completeInboxAction'), ({ session, params, body }) =>
  actOnInboxMessage(inboxOf(session), params.id, body.actionType, true),
);
