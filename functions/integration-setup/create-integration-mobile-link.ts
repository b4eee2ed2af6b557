import { route } from '#infra/routes/integration-setup.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createTelegramMobileLink } from '#lib/integration-setup/telegram.ts';

export const handler = idempotentHttpHandler(route('createIntegrationMobileLink'), ({ caller, params, body }) =>
  createTelegramMobileLink(caller, params.integrationIdentifier, body),
);
