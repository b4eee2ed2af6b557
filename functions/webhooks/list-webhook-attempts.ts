import { route } from '#infra/routes/webhooks.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listAttempts } from '#lib/webhooks/attempts.ts';

export const handler = httpHandler(route('listWebhookAttempts'), ({ caller, params, query }) =>
  listAttempts(caller, params.endpointId, query),
);
