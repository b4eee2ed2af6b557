import { route } from '#infra/routes/webhooks.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listDeadLetters } from '#lib/webhooks/attempts.ts';

export const handler = httpHandler(route('listWebhookDeadLetters'), ({ caller, params, query }) =>
  listDeadLetters(caller, params.endpointId, query),
);
