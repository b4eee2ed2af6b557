import { jwtVerify, SignJWT } from 'jose';
import { sessionSigningKey } from './session-key.ts';

// Subscriber session tokens: what POST /v1/inbox/session hands `<Inbox />`, and what every other
// inbox route and the live socket take as `Authorization: Bearer <token>` or `?token=`. A signed
// JWT (HS256 under the stage's session key), so checking one needs no read; it opens one
// subscriber's data in one environment and nothing else. The client treats it as opaque.

const ISSUER = 'notify';
const AUDIENCE = 'widget_user';
/** As long as the reference's: the client never refreshes a token, a page load makes a new one. */
export const SESSION_TTL_SECONDS = 15 * 24 * 3600;

/** Whose inbox a session opens. */
export interface SubscriberSession {
  organizationId: string;
  environmentId: string;
  /** External and internal id of the subscriber. */
  subscriberId: string;
  subscriberDbId: string;
  /** Context keys (`type:id`, sorted) the session was opened with; they scope what it sees. */
  contextKeys: string[];
}

export async function signSessionToken(session: SubscriberSession, now = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    organizationId: session.organizationId,
    environmentId: session.environmentId,
    subscriberId: session.subscriberId,
    contextKeys: session.contextKeys,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(session.subscriberDbId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + SESSION_TTL_SECONDS)
    .sign(await sessionSigningKey({ create: true }));
}

/** The session a token opens, or undefined when it is not one of ours, altered or expired. */
export async function verifySessionToken(token: string): Promise<SubscriberSession | undefined> {
  // A fault reading the key is a fault, not a bad token: it propagates.
  const key = await sessionSigningKey();
  if (!key) return undefined;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    const { organizationId, environmentId, subscriberId, contextKeys, sub } = payload;
    if (
      typeof organizationId !== 'string' ||
      typeof environmentId !== 'string' ||
      typeof subscriberId !== 'string' ||
      typeof sub !== 'string'
    )
      return undefined;
    const keysOk = Array.isArray(contextKeys) && contextKeys.every((k) => typeof k === 'string');
    return { organizationId, environmentId, subscriberId, subscriberDbId: sub, contextKeys: keysOk ? (contextKeys as string[]) : [] };
  } catch {
    return undefined;
  }
}
