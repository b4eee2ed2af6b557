import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateSubscriberCredentials } from '#lib/subscribers/credentials.ts';

export const handler = httpHandler(route('updateSubscriberCredentials'), ({ caller, params, body }) =>
  updateSubscriberCredentials(caller, params.subscriberId, body, 'replace'),
);
