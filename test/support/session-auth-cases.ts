import fc from 'fast-check';
import { SESSION_TTL_SECONDS, signSessionToken } from '#lib/auth/session-token.ts';
import type { EnvScope } from '#lib/store/keys.ts';

// Authorization headers for the bad-input property test of routes with `auth: 'subscriber'`: a
// valid session token now and then (so random input reaches validation and the handler), else
// every way a session token can be wrong.

export interface AuthCase {
  header: string | undefined;
  valid: boolean;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function sessionAuthCases(scope: EnvScope, subscriber: { subscriberId: string; _id: string }, apiKey: string): Promise<fc.Arbitrary<AuthCase>> {
  const session = { ...scope, subscriberId: subscriber.subscriberId, subscriberDbId: subscriber._id, contextKeys: [] };
  const token = await signSessionToken(session);
  const expired = await signSessionToken(session, new Date(Date.now() - (SESSION_TTL_SECONDS + 60) * 1000));
  const [header, payload] = token.split('.');
  const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
  // Another subscriber's id under this token's signature: the signature no longer matches.
  const otherSubscriber = `${header}.${base64url({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'someone-else' })}.${token.split('.')[2]}`;
  return fc.oneof(
    fc.constant({ header: `Bearer ${token}`, valid: true }),
    fc.constantFrom<AuthCase>(
      { header: undefined, valid: false },
      { header: '', valid: false },
      { header: 'Bearer', valid: false },
      { header: 'Bearer ', valid: false },
      { header: `bearer ${token}`, valid: false },
      { header: `Bearer ${token}x`, valid: false },
      { header: `Bearer ${expired}`, valid: false },
      { header: `Bearer ${unsigned}`, valid: false },
      { header: `Bearer ${otherSubscriber}`, valid: false },
      { header: `ApiKey ${apiKey}`, valid: false },
      { header: `Bearer ${apiKey}`, valid: false },
      { header: `Bearer ${'t'.repeat(2000)}`, valid: false },
    ),
    fc.string({ maxLength: 80 }).map((text) => ({ header: `Bearer ${text}`.replace(/[^\x20-\x7e]/g, ''), valid: false })),
  );
}
