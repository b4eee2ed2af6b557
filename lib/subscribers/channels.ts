import { BadRequestError } from '../errors.ts';
import type { ChannelSettings } from './model.ts';
import type { ChannelCredentials } from './schemas.ts';

// How new credentials combine with a subscriber's channel settings, each rule stated where it is
// applied. Pure, so every rule is easy to test.

export const MAX_DEVICE_TOKENS = 100;

/** PUT replaces device tokens; PATCH appends to them. Both de-duplicate. */
export type TokenMode = 'replace' | 'append';

export interface CredentialsUpdate {
  providerId: string;
  integrationId: string;
  credentials: ChannelCredentials;
}

export function applyCredentials(channels: ChannelSettings[], update: CredentialsUpdate, mode: TokenMode): ChannelSettings[] {
  const { providerId, integrationId, credentials } = update;
  const index = channels.findIndex((c) => c.providerId === providerId && c._integrationId === integrationId);
  const existing = channels[index];

  if (!existing) {
    const added: ChannelSettings = { providerId, _integrationId: integrationId, credentials: { ...credentials } };
    if (credentials.deviceTokens) added.credentials.deviceTokens = checkedTokens(credentials.deviceTokens);
    return [...channels, added];
  }
  // A PUT without deviceTokens leaves none: the reference computes the list from the request alone.
  const deviceTokens = checkedTokens(
    mode === 'replace'
      ? (credentials.deviceTokens ?? [])
      : [...(existing.credentials.deviceTokens ?? []), ...(credentials.deviceTokens ?? [])],
  );
  const changed: ChannelSettings = { ...existing, credentials: { ...existing.credentials, ...credentials, deviceTokens } };
  return channels.map((c, i) => (i === index ? changed : c));
}

function checkedTokens(tokens: string[]): string[] {
  const unique = [...new Set(tokens)];
  if (unique.length > MAX_DEVICE_TOKENS) {
    throw new BadRequestError(
      `Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is ${MAX_DEVICE_TOKENS}, ` +
        `but got ${unique.length} tokens.`,
    );
  }
  return unique;
}
