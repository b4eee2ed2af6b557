import { createHmac } from 'node:crypto';

// The signature a bridge built with @novu/framework checks on every call but its health check:
// `novu-signature: t=<ms>,v1=<hex HMAC-SHA256 of "<t>.<JSON body>">` keyed with the
// environment's secret key (its API key). A GET is signed over `{}`, as the framework reads it.

export function bridgeSignature(secretKey: string, body: unknown, now = Date.now()): string {
  const v1 = createHmac('sha256', secretKey)
    .update(`${now}.${JSON.stringify(body ?? {})}`)
    .digest('hex');
  return `t=${now},v1=${v1}`;
}
