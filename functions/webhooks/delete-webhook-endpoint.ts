import { route } from '#infra/routes/webhooks.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeEndpoint } from '#lib/webhooks/endpoints.ts';

export const handler = httpHandler(route('deleteWebhookEndpoint'), ({ caller, params }) => removeEndpoint(caller, params.endpointId));
