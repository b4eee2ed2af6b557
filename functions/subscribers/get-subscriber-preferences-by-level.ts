import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getV1Preferences } from '#lib/preferences/v1.ts';

export const handler = httpHandler(route('getSubscriberPreferencesByLevel'), ({ caller, params, query }) =>
  getV1Preferences(caller, params.subscriberId, params.parameter, query.includeInactiveChannels),
);
