import { canonicalize } from '@tufjs/canonical-json';
import { createHmac, timingSafeEqual } from 'node:crypto';

// Inbox HMAC (reference: `subscriberHash` and `contextHash`): the customer's backend signs what a
// browser may claim with one of the environment's API keys, so a page cannot open another
// subscriber's inbox or context by changing an id. Hex HMAC-SHA256 of the subscriberId, and of
// the canonical JSON of the context (sorted keys, as the reference's `@tufjs/canonical-json`,
// the same library here, so a hash made for the reference verifies here).

const hmacHex = (key: string, message: string) => createHmac('sha256', key).update(message, 'utf8').digest('hex');

/** Whether `hash` is the HMAC of `message` under any of `apiKeys` (timing-safe). */
function signedByAny(apiKeys: readonly string[], message: string, hash: string | undefined): boolean {
  if (!hash) return false;
  const given = Buffer.from(hash.toLowerCase(), 'utf8');
  return apiKeys.some((key) => {
    const expected = Buffer.from(hmacHex(key, message), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

export const subscriberHashValid = (apiKeys: readonly string[], subscriberId: string, hash: string | undefined): boolean =>
  signedByAny(apiKeys, subscriberId, hash);

export const contextHashValid = (apiKeys: readonly string[], context: unknown, hash: string | undefined): boolean =>
  signedByAny(apiKeys, canonicalize(context), hash);
