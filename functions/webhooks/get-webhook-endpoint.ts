import { route } from '#infra/routes/webhooks.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { requireEndpoint } from '#lib/webhooks/endpoints.ts';

export const handler = httpHandler(route('getWebhookEndpoint'), ({ caller, params }) => requireEndpoint(caller, params.endpointId));
