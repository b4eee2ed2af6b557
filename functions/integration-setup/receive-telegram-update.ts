import { route } from '#infra/routes/integration-setup.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { receiveTelegramUpdate } from '#lib/integration-setup/telegram.ts';

export const handler = httpHandler(route('receiveTelegramUpdate'), ({ params, headers, body }) =>
  receiveTelegramUpdate(params.environmentId, params.integrationId, headers['x-telegram-bot-api-secret-token'], body),
);
