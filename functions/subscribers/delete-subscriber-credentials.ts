import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeSubscriberCredentials } from '#lib/subscribers/remove-credentials.ts';

export const handler = httpHandler(route('deleteSubscriberCredentials'), ({ caller, params }) =>
  removeSubscriberCredentials(caller, params.subscriberId, params.providerId),
);
