import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';

// The tokens of Telegram deep links (createMobileLink): a `/start` parameter may hold at most 64
// characters of [A-Za-z0-9_-], too short for a signed token, so it is 32 random characters
// naming a stored record (environment, integration, subscriber, expiry). Single use: the bot's
// `/start` deletes the record as it reads it, so a second use finds nothing.

export const LINK_TTL_SECONDS = 15 * 60;

export interface TelegramLink {
  integrationId: string;
  subscriberId: string;
  expiresAt: string;
}

export async function issueLinkToken(
  scope: EnvScope,
  link: Omit<TelegramLink, 'expiresAt'>,
  now = new Date(),
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(24).toString('base64url');
  const expires = Math.floor(now.getTime() / 1000) + LINK_TTL_SECONDS;
  const expiresAt = new Date(expires * 1000).toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.telegramLinkToken(scope, token), type: 'TelegramLink', ...link, expiresAt, ttl: expires },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { token, expiresAt };
}

/** The link the token names, used up; undefined when it is unknown, used or expired. */
export async function consumeLinkToken(scope: EnvScope, token: string, now = new Date()): Promise<TelegramLink | undefined> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
  const { Attributes: item } = await db().send(
    new DeleteCommand({ TableName: tableName(), Key: keys.telegramLinkToken(scope, token), ReturnValues: 'ALL_OLD' }),
  );
  if (!item || typeof item.expiresAt !== 'string' || Date.parse(item.expiresAt) <= now.getTime()) return undefined;
  return { integrationId: String(item.integrationId), subscriberId: String(item.subscriberId), expiresAt: item.expiresAt };
}
