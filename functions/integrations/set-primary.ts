import { route } from '#infra/routes/integrations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { setPrimaryIntegration } from '#lib/integrations/set-primary.ts';

export const handler = httpHandler(route('setPrimaryIntegration'), ({ caller, params }) =>
  setPrimaryIntegration(caller, params.integrationId),
);
