import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { markMessageFlags } from '#lib/messages/mark-flags.ts';

export const handler = idempotentHttpHandler(route('markMessageFlags'), ({ caller, params, body }) =>
  markMessageFlags(caller, params.subscriberId, body),
);
