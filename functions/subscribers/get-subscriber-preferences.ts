import { route } from '#infra/routes/subscribers.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getSubscriberPreferences } from '#lib/preferences/get.ts';

export const handler = httpHandler(route('getSubscriberPreferences'), ({ caller, params, query }) =>
  getSubscriberPreferences(caller, params.subscriberId, query.criticality),
);
