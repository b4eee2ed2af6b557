import { route } from '#infra/routes/integrations.ts';
import { httpHandler, withWarning } from '#lib/http/handler.ts';
import { uncheckedNotice } from '#lib/integrations/connection-check.ts';
import { updateIntegration } from '#lib/integrations/update.ts';

export const handler = httpHandler(route('updateIntegration'), async ({ caller, params, body }) => {
  const integration = await updateIntegration(caller, params.integrationId, body);
  return withWarning(integration, body.check ? uncheckedNotice(integration.providerId, integration.credentials) : undefined);
});
