import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { patchSubscriber } from '#lib/subscribers/update.ts';

export const handler = httpHandler(route('patchSubscriber'), ({ caller, params, body }) =>
  patchSubscriber(caller, params.subscriberId, body),
);
