import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { sessionSigningKey } from '../auth/session-key.ts';

// The token of a tracked link or open pixel: AES-256-GCM over what the click needs to find its
// message (organization, environment, subscriber, message, which link) and when the token stops
// working, under a key derived from the stage's signing secret (HKDF with a label of its own, so
// it is no session key). The token reveals nothing (no id can be read from it, and two links of
// one message share no visible part: each has its own random IV), and any change to it fails
// the authentication tag: nothing can be guessed, enumerated or forged. Base64url, ~150
// characters.

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const LABEL = 'notify engagement token v1';

export type TokenKind = 'click' | 'open';

export interface TrackingToken {
  kind: TokenKind;
  organizationId: string;
  environmentId: string;
  subscriberId: string;
  messageId: string;
  /** Clicks: the link's index in the message's `links`. */
  link: number;
  /** Epoch seconds after which the token is refused (the message's own expiry). */
  expires: number;
}

let derived: Promise<Buffer | undefined> | undefined;

async function tokenKey(create: boolean): Promise<Buffer | undefined> {
  if (derived) {
    const key = await derived;
    if (key) return key;
  }
  derived = (create ? sessionSigningKey({ create: true }) : sessionSigningKey()).then(
    (secret) => secret && Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), LABEL, 32)),
  );
  derived.catch(() => (derived = undefined));
  return derived;
}

export async function sealToken(token: TrackingToken): Promise<string> {
  const key = (await tokenKey(true))!;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const plain = Buffer.from(
    JSON.stringify([
      VERSION,
      token.kind === 'click' ? 'c' : 'o',
      token.organizationId,
      token.environmentId,
      token.subscriberId,
      token.messageId,
      token.link,
      token.expires,
    ]),
  );
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The token's content, or undefined when it is malformed, forged, tampered with or expired. */
export async function openToken(text: string, now: Date = new Date()): Promise<TrackingToken | undefined> {
  if (!/^[A-Za-z0-9_-]{40,1024}$/.test(text)) return undefined;
  const raw = Buffer.from(text, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
  const key = await tokenKey(false);
  if (!key) return undefined;
  let fields: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    fields = JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields[0] !== VERSION || fields.length !== 8) return undefined;
  const [, kind, organizationId, environmentId, subscriberId, messageId, link, expires] = fields as unknown[];
  const strings = [organizationId, environmentId, subscriberId, messageId];
  if (!strings.every((s) => typeof s === 'string') || typeof link !== 'number' || typeof expires !== 'number') return undefined;
  if (expires * 1000 < now.getTime()) return undefined;
  return {
    kind: kind === 'c' ? 'click' : 'open',
    organizationId: organizationId as string,
    environmentId: environmentId as string,
    subscriberId: subscriberId as string,
    messageId: messageId as string,
    link,
    expires,
  };
}
