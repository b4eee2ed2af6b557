import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getV1Preferences } from '#lib/preferences/v1.ts';

export const handler = httpHandler(route('getSubscriberPreferencesV1'), ({ caller, params, query }) =>
  getV1Preferences(caller, params.subscriberId, 'template', query.includeInactiveChannels),
);
