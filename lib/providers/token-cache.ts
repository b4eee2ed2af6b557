import { createHash } from 'node:crypto';

// Access tokens a provider grants (FCM OAuth) or that we sign (APNs JWT) are reused until shortly
// before they expire: a token per send would be slow, and APNs refuses tokens renewed too often.
// Keyed by a hash of the credentials, so changed credentials get a fresh token; concurrent sends
// share one request for it.

interface Entry {
  value: Promise<{ token: string; expiresAt: number }>;
}

const entries = new Map<string, Entry>();

export function cacheKey(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export async function cachedToken(
  key: string,
  create: () => Promise<{ token: string; expiresAt: number }>,
  now = Date.now(),
): Promise<string> {
  const existing = entries.get(key);
  if (existing) {
    try {
      const { token, expiresAt } = await existing.value;
      if (expiresAt > now) return token;
    } catch {
      // a failed request is not cached: ask again below
    }
    if (entries.get(key) === existing) entries.delete(key);
  }
  const entry: Entry = { value: create() };
  entries.set(key, entry);
  try {
    return (await entry.value).token;
  } catch (error) {
    if (entries.get(key) === entry) entries.delete(key);
    throw error;
  }
}

/** The provider rejected the token (revoked, clock skew): the next send gets a new one. */
export function forgetToken(key: string): void {
  entries.delete(key);
}
