import { route } from '#infra/routes/integrations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { setPrimaryIntegration } from '#lib/integrations/set-primary.ts';

export const handler = idempotentHttpHandler(route('setPrimaryIntegration'), ({ caller, params }) =>
  setPrimaryIntegration(caller, params.integrationId),
);
