import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { patchSubscriber } from '#lib/subscribers/update.ts';

// The legacy PUT changes only the fields sent, as the v2 PATCH does.
export const handler = httpHandler(route('updateSubscriberV1'), ({ caller, params, body }) =>
  patchSubscriber(caller, params.subscriberId, body),
);
