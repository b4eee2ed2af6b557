import { route } from '#infra/routes/integration-setup.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { autoConfigureIntegration } from '#lib/integration-setup/auto-configure.ts';

export const handler = idempotentHttpHandler(route('autoConfigureIntegration'), ({ caller, params, headers }) =>
  autoConfigureIntegration(caller, params.integrationId, headers),
);
