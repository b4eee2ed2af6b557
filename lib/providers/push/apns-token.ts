import { createPrivateKey, type KeyObject } from 'node:crypto';
import { signJwt } from '../jwt.ts';
import { ProviderError } from '../provider.ts';
import { cacheKey, cachedToken, forgetToken } from '../token-cache.ts';

// APNs token auth: an ES256 JWT {iss: team id, iat} with the key id in its header, signed with
// the .p8 key. Apple accepts a token for an hour and refuses renewals more often than every 20
// minutes, so one is kept for 50.

const LIFETIME_MS = 50 * 60_000;

export interface ApnsKey {
  /** The .p8 file's PEM text. */
  privateKey: string;
  keyId: string;
  teamId: string;
}

export function apnsTokenKey(key: ApnsKey): string {
  return cacheKey('apns', key.teamId, key.keyId, key.privateKey);
}

export function apnsToken(key: ApnsKey): Promise<string> {
  return cachedToken(apnsTokenKey(key), async () => {
    const now = Date.now();
    return {
      token: signJwt('ES256', parseApnsKey(key.privateKey), { kid: key.keyId }, { iss: key.teamId, iat: Math.floor(now / 1000) }),
      expiresAt: now + LIFETIME_MS,
    };
  });
}

export const forgetApnsToken = (key: ApnsKey): void => forgetToken(apnsTokenKey(key));

/** The .p8 key as a KeyObject; a ProviderError saying so when it is not one. */
export function parseApnsKey(pem: unknown): KeyObject {
  if (typeof pem !== 'string') throw new ProviderError('The APNs private key (secretKey) is not a valid .p8 key');
  try {
    // A key pasted into a JSON string often arrives with its line breaks escaped.
    return createPrivateKey(pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem);
  } catch {
    throw new ProviderError('The APNs private key (secretKey) is not a valid .p8 key');
  }
}
