import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateSubscriberPreferences } from '#lib/preferences/update.ts';

export const handler = idempotentHttpHandler(route('updateSubscriberPreferences'), ({ caller, params, body }) =>
  updateSubscriberPreferences(caller, params.subscriberId, body),
);
