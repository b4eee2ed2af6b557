import { createHmac } from 'node:crypto';
import { sessionSigningKey } from '../auth/session-key.ts';
import { sameBytes } from '../receipts/vendors/hmac.ts';

// The secret Telegram sends with every update (X-Telegram-Bot-Api-Secret-Token), given to it by
// webhook/configure: derived from the stage's signing key and the integration, so nothing is
// stored and one integration's secret says nothing of another's.

const PURPOSE = 'telegram-webhook';

export async function telegramWebhookSecret(integrationId: string): Promise<string> {
  const key = await sessionSigningKey({ create: true });
  return createHmac('sha256', key).update(`${PURPOSE}:${integrationId}`).digest('base64url');
}

export async function isTelegramWebhookSecret(integrationId: string, given: string | undefined): Promise<boolean> {
  if (!given) return false;
  return sameBytes(Buffer.from(given), Buffer.from(await telegramWebhookSecret(integrationId)));
}
