import { route } from '#infra/routes/webhooks.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createEndpoint } from '#lib/webhooks/endpoints.ts';

export const handler = idempotentHttpHandler(route('createWebhookEndpoint'), ({ caller, body }) => createEndpoint(caller, body));
