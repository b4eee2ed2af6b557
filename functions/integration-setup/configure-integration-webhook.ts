import { route } from '#infra/routes/integration-setup.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { configureTelegramWebhook } from '#lib/integration-setup/telegram.ts';

export const handler = idempotentHttpHandler(route('configureIntegrationWebhook'), ({ caller, params, headers }) =>
  configureTelegramWebhook(caller, params.integrationIdentifier, headers),
);
