import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateV1GlobalPreferences } from '#lib/preferences/v1.ts';

export const handler = idempotentHttpHandler(route('updateSubscriberGlobalPreferencesV1'), ({ caller, params, body }) =>
  updateV1GlobalPreferences(caller, params.subscriberId, body),
);
