import { route } from '#infra/routes/integrations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeIntegration } from '#lib/integrations/remove.ts';

export const handler = httpHandler(route('deleteIntegration'), ({ caller, params }) => removeIntegration(caller, params.integrationId));
