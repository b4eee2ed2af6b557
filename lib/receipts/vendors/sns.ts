import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ENV, flag } from '../../config.ts';
import { UnauthorizedError } from '../../errors.ts';

// Amazon SNS messages (how SES publishes its events), checked as AWS documents: the signature
// over the message's fields in their fixed order, with the certificate at SigningCertURL, which
// must be served by SNS itself (https, `sns.<region>.amazonaws.com`), so nobody can sign with a
// certificate of their own. A subscription is confirmed by fetching its SubscribeURL, once the
// request is known to come from SNS. Certificates are kept per container: SNS signs with few.

export interface SnsMessage {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
}

const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const FETCH_TIMEOUT_MS = 5_000;

/** Fields signed, in order, per message type (AWS: "Verifying the signatures of Amazon SNS messages"). */
const SIGNED_FIELDS: Record<SnsMessage['Type'], (keyof SnsMessage)[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

export function parseSnsMessage(rawBody: string): SnsMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new UnauthorizedError('Not an Amazon SNS message');
  }
  const m = parsed as Partial<SnsMessage> | null;
  const strings = ['Type', 'MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'] as const;
  if (!m || typeof m !== 'object' || strings.some((k) => typeof m[k] !== 'string') || !(m.Type! in SIGNED_FIELDS)) {
    throw new UnauthorizedError('Not a signed Amazon SNS message');
  }
  return m as SnsMessage;
}

/** Checks the SNS signature of the message; UnauthorizedError when it is not SNS's. */
export async function verifySnsMessage(m: SnsMessage): Promise<void> {
  const algorithm = m.SignatureVersion === '1' ? 'sha1' : m.SignatureVersion === '2' ? 'sha256' : undefined;
  if (!algorithm) throw new UnauthorizedError(`Unknown SNS signature version ${m.SignatureVersion}`);
  const signed = SIGNED_FIELDS[m.Type]
    .filter((k) => m[k] !== undefined)
    .map((k) => `${k}\n${m[k]}\n`)
    .join('');
  const key = await certificate(m.SigningCertURL);
  if (!verify(algorithm, Buffer.from(signed, 'utf8'), key, Buffer.from(m.Signature, 'base64'))) {
    throw new UnauthorizedError('Invalid Amazon SNS signature');
  }
}

/** Confirms a subscription the message asks for (its URL checked like a certificate's). */
export async function confirmSubscription(m: SnsMessage): Promise<void> {
  if (!m.SubscribeURL) throw new UnauthorizedError('SubscriptionConfirmation without SubscribeURL');
  const answer = await fetch(snsUrl(m.SubscribeURL), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!answer.ok) throw new Error(`Amazon SNS refused the subscription confirmation: ${answer.status}`);
}

const certificates = new Map<string, Promise<KeyObject>>();

function certificate(url: string): Promise<KeyObject> {
  const checked = snsUrl(url).toString();
  let key = certificates.get(checked);
  if (!key) {
    key = fetchCertificate(checked);
    certificates.set(checked, key);
    key.catch(() => certificates.delete(checked));
  }
  return key;
}

async function fetchCertificate(url: string): Promise<KeyObject> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!answer.ok) throw new Error(`Amazon SNS signing certificate unavailable: ${answer.status}`);
  return createPublicKey(await answer.text());
}

/** An SNS URL: https on an SNS host (locally, with the setting, http on 127.0.0.1 or localhost too). */
function snsUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnauthorizedError('Invalid Amazon SNS URL');
  }
  const local =
    flag(ENV.localSnsCertificates) && url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
  if (!local && (url.protocol !== 'https:' || !SNS_HOST.test(url.hostname)))
    throw new UnauthorizedError(`Amazon SNS URL not on an SNS host: ${url.host}`);
  return url;
}
