import { route } from '#infra/routes/subscribers.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateV1WorkflowPreference } from '#lib/preferences/v1.ts';

export const handler = idempotentHttpHandler(route('updateSubscriberWorkflowPreferenceV1'), ({ caller, params, body }) =>
  updateV1WorkflowPreference(caller, params.subscriberId, params.parameter, body),
);
