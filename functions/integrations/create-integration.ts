import { route } from '#infra/routes/integrations.ts';
import { withWarning } from '#lib/http/handler.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { uncheckedNotice } from '#lib/integrations/connection-check.ts';
import { createIntegration } from '#lib/integrations/create.ts';

export const handler = idempotentHttpHandler(route('createIntegration'), async ({ caller, body }) => {
  const integration = await createIntegration(caller, body);
  return withWarning(integration, body.check ? uncheckedNotice(integration.providerId, integration.credentials) : undefined);
});
