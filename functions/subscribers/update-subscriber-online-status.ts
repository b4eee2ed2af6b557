import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateOnlineStatus } from '#lib/subscribers/online-status.ts';

export const handler = idempotentHttpHandler(route('updateSubscriberOnlineStatus'), ({ caller, params, body }) =>
  updateOnlineStatus(caller, params.subscriberId, body),
);
