import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { patchSubscriber } from '#lib/subscribers/update.ts';

export const handler = idempotentHttpHandler(route('patchSubscriber'), ({ caller, params, body }) =>
  patchSubscriber(caller, params.subscriberId, body),
);
