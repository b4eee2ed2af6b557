import { route } from '#infra/routes/integrations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateIntegration } from '#lib/integrations/update.ts';

export const handler = httpHandler(route('updateIntegration'), ({ caller, params, body }) =>
  updateIntegration(caller, params.integrationId, body),
);
