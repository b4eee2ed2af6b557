import { route } from '#infra/routes/integration-setup.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { receiveTelegramUpdate } from '#lib/integration-setup/telegram.ts';

export const handler = publicHttpHandler(route('receiveTelegramUpdate'), ({ params, headers, body }) =>
  receiveTelegramUpdate(params.environmentId, params.integrationId, headers['x-telegram-bot-api-secret-token'], body),
);
