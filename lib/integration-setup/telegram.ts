import type { Caller } from '../auth/caller.ts';
import { chatIntegrationOrFail } from '../channels/integration.ts';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../errors.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { isId } from '../ids.ts';
import { getIntegration, type StoredIntegration } from '../integrations/repository.ts';
import { logger } from '../logger.ts';
import { callTelegram, telegramBotUsername } from '../providers/chat/telegram.ts';
import { ProviderError } from '../providers/provider.ts';
import type { EnvScope } from '../scope.ts';
import { updateSubscriberCredentials } from '../subscribers/credentials.ts';
import { getSubscriberOrFail } from '../subscribers/get.ts';
import { findEnvironmentById } from '../accounts/environment-lookup.ts';
import { consumeLinkToken, issueLinkToken } from './telegram-link-store.ts';
import { isTelegramWebhookSecret, telegramWebhookSecret } from './telegram-webhook-secret.ts';

// A Telegram integration's setup (docs/chat.md, "Telegram"): webhook/configure registers our
// updates URL with the bot (setWebhook, with a secret Telegram sends back on every update);
// createMobileLink issues the bot's deep link for a subscriber (https://t.me/<bot>?start=<token>,
// single use, 15 minutes); when the subscriber opens it and presses Start, Telegram posts the
// `/start <token>` message to the updates URL, and the chat it came from becomes the subscriber's
// Telegram credentials (`channel`), where chat steps then post.

export const UPDATES_PATH = '/webhooks/telegram';

async function telegramIntegrationOrFail(scope: EnvScope, identifier: string): Promise<StoredIntegration> {
  const integration = await chatIntegrationOrFail(scope, identifier);
  if (integration.providerId !== 'telegram') {
    throw new BadRequestError(
      `Integration ${identifier} is a ${integration.providerId} integration: this is only available for Telegram integrations`,
    );
  }
  if (typeof integration.credentials.apiToken !== 'string' || !integration.credentials.apiToken) {
    throw new BadRequestError(`Integration ${identifier} has no Bot Token (apiToken): set the token BotFather gave the bot first`);
  }
  return integration;
}

/** Telegram's refusal (a revoked or mistyped bot token) as the caller's 400, with Telegram's words. */
async function askTelegram<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError) throw new BadRequestError(`Telegram did not accept the bot token: ${error.message}`);
    throw error;
  }
}

export function updatesUrl(headers: Record<string, string | undefined>, scope: EnvScope, integrationId: string): string {
  return `${publicBaseUrl(headers)}${UPDATES_PATH}/${encodeURIComponent(scope.environmentId)}/${encodeURIComponent(integrationId)}`;
}

export async function configureTelegramWebhook(
  caller: Caller,
  identifier: string,
  headers: Record<string, string | undefined>,
): Promise<{ webhookUrl: string; configuredAt: string; botUsername: string }> {
  const integration = await telegramIntegrationOrFail(caller, identifier);
  const webhookUrl = updatesUrl(headers, caller, integration._id);
  const secret = await telegramWebhookSecret(integration._id);
  const botUsername = await askTelegram(async () => {
    const username = await telegramBotUsername(integration.credentials);
    await callTelegram(integration.credentials, 'setWebhook', { url: webhookUrl, secret_token: secret, allowed_updates: ['message'] });
    return username;
  });
  return { webhookUrl, configuredAt: new Date().toISOString(), botUsername };
}

export async function createTelegramMobileLink(
  caller: Caller,
  identifier: string,
  input: { subscriberId?: string | undefined },
): Promise<{ token: string; url: string; expiresAt: string }> {
  const integration = await telegramIntegrationOrFail(caller, identifier);
  if (!input.subscriberId) {
    throw new BadRequestError('subscriberId is required: the link connects that subscriber’s Telegram chat to the bot');
  }
  await getSubscriberOrFail(caller, input.subscriberId);
  const username = await askTelegram(() => telegramBotUsername(integration.credentials));
  const { token, expiresAt } = await issueLinkToken(caller, { integrationId: integration._id, subscriberId: input.subscriberId });
  return { token, url: `https://t.me/${encodeURIComponent(username)}?start=${token}`, expiresAt };
}

interface TelegramUpdate {
  message?: { text?: string; chat?: { id?: number | string } };
}

/**
 * An update Telegram posts (no API key: the secret it was given is the credential). A `/start`
 * with a link token stores the chat as the subscriber's; everything else is acknowledged and
 * left, since Telegram would otherwise send it again.
 */
export async function receiveTelegramUpdate(
  environmentId: string,
  integrationId: string,
  secret: string | undefined,
  update: TelegramUpdate,
): Promise<{ ok: true; linked?: string }> {
  const notFound = new NotFoundError(`Integration ${integrationId} not found`);
  const scope = isId(environmentId) ? await findEnvironmentById(environmentId) : undefined;
  const integration = scope && isId(integrationId) ? await getIntegration(scope.organizationId, integrationId) : undefined;
  if (!scope || !integration || integration._environmentId !== scope.environmentId || integration.providerId !== 'telegram') throw notFound;
  if (!(await isTelegramWebhookSecret(integration._id, secret))) throw new UnauthorizedError('Invalid Telegram secret token');

  const [command, token] = (update.message?.text ?? '').trim().split(/\s+/);
  const chatId = update.message?.chat?.id;
  if (command !== '/start' || !token || chatId === undefined) return { ok: true };
  const link = await consumeLinkToken(scope, token);
  if (!link || link.integrationId !== integration._id) return { ok: true };
  await updateSubscriberCredentials(
    { ...scope, userId: 'telegram' },
    link.subscriberId,
    { providerId: 'telegram', integrationIdentifier: integration.identifier, credentials: { channel: String(chatId) } },
    'replace',
  );
  logger.info('Telegram chat linked to a subscriber', { integrationId, subscriberId: link.subscriberId });
  return { ok: true, linked: link.subscriberId };
}
