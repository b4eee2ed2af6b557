import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateSubscriberPreferences } from '#lib/preferences/update.ts';

export const handler = httpHandler(route('updateSubscriberPreferences'), ({ caller, params, body }) =>
  updateSubscriberPreferences(caller, params.subscriberId, body),
);
