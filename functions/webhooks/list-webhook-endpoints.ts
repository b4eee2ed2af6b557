import { route } from '#infra/routes/webhooks.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listEndpoints } from '#lib/webhooks/endpoints.ts';

export const handler = httpHandler(route('listWebhookEndpoints'), ({ caller, query }) => listEndpoints(caller, query));
