import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { bulkUpdateSubscriberPreferences } from '#lib/inbox/preferences-bulk.ts';

export const handler = idempotentHttpHandler(route('bulkUpdateSubscriberPreferences'), ({ caller, params, body }) =>
  bulkUpdateSubscriberPreferences(caller, params.subscriberId, body),
);
