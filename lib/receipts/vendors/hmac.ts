import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../errors.ts';

// The HMAC signatures vendors put on their receipts, compared in constant time.

/** `sent` may be several signatures (a vendor signing under old and new keys while they rotate): any one will do. */
export function assertHmac(
  algorithm: 'sha1' | 'sha256',
  key: string,
  signed: string,
  sent: string | readonly string[] | undefined,
  encoding: 'hex' | 'base64',
  vendor: string,
): void {
  if (!sent || sent.length === 0) throw new UnauthorizedError(`Missing ${vendor} signature`);
  const expected = createHmac(algorithm, key).update(signed, 'utf8').digest();
  if (![sent].flat().some((one) => sameBytes(Buffer.from(one, encoding), expected)))
    throw new UnauthorizedError(`Invalid ${vendor} signature`);
}

/** Equal, compared in constant time (a secret's length is no secret). */
export function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The account's auth token (Twilio, Plivo sign with it); UnauthorizedError when the integration has none. */
export function authToken(credentials: Record<string, unknown>, vendor: string): string {
  const token = credentials.token;
  if (typeof token !== 'string' || !token)
    throw new UnauthorizedError(`The integration has no ${vendor} auth token to check the signature with`);
  return token;
}

/** The key a vendor signs with, from the integration; UnauthorizedError when none is set. */
export function signingKey(value: unknown, vendor: string): string {
  if (typeof value !== 'string' || value === '')
    throw new UnauthorizedError(`No ${vendor} signing key is set on the integration (inboundWebhookSigningKey)`);
  return value;
}

/** Form parameters as Twilio and Plivo sign them: each name then its value, in name order, no separators. */
export function sortedParams(params: URLSearchParams): string {
  return [...new Set(params.keys())]
    .sort()
    .map((name) =>
      params
        .getAll(name)
        .map((value) => name + value)
        .join(''),
    )
    .join('');
}
