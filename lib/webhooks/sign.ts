import { Webhook } from 'standardwebhooks';

// Signing as Standard Webhooks (and Svix) define it, with the `standardwebhooks` library itself,
// so what a customer verifies with it is by construction what was signed:
// base64(HMAC-SHA256(secret, "<id>.<timestamp>.<body>")) as `v1,<signature>`. The headers go out
// under both names: `svix-*`, as the reference's (Svix) deliveries carry them, and `webhook-*`,
// the names the standard and its libraries read.

export function signedHeaders(secret: string, eventId: string, payload: string, at: Date): Record<string, string> {
  const signature = new Webhook(secret).sign(eventId, at, payload);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'content-type': 'application/json',
    'user-agent': 'notify-webhooks/1',
    'svix-id': eventId,
    'svix-timestamp': timestamp,
    'svix-signature': signature,
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
}
