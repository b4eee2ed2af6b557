import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateSubscriberCredentials } from '#lib/subscribers/credentials.ts';

export const handler = idempotentHttpHandler(route('appendSubscriberCredentials'), ({ caller, params, body }) =>
  updateSubscriberCredentials(caller, params.subscriberId, body, 'append'),
);
