import { route } from '#infra/routes/webhooks.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { rotateEndpointSecret } from '#lib/webhooks/endpoints.ts';

export const handler = idempotentHttpHandler(route('rotateWebhookEndpointSecret'), ({ caller, params }) =>
  rotateEndpointSecret(caller, params.endpointId),
);
