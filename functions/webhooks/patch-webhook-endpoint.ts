import { route } from '#infra/routes/webhooks.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { changeEndpoint } from '#lib/webhooks/endpoints.ts';

export const handler = idempotentHttpHandler(route('patchWebhookEndpoint'), ({ caller, params, body }) =>
  changeEndpoint(caller, params.endpointId, body),
);
