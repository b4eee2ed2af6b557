import { createPublicKey, verify } from 'node:crypto';
import { UnauthorizedError } from '../../errors.ts';
import type { ReceiptReader } from '../model.ts';
import { parseJson, validDate } from './date.ts';
import { signingKey } from './hmac.ts';

// Telnyx signs its webhooks with Ed25519: `telnyx-signature-ed25519` (base64) over
// `<telnyx-timestamp>|<body>`, checked with the account's public key (base64, as the portal
// shows it; the integration's inboundWebhookSigningKey). A timestamp more than five minutes off
// is refused (a replay), as Telnyx's own libraries do. `data.payload.id` is the id the send
// answered; `data.id` the event's.

const TOLERANCE_SECONDS = 300;

const STATUS: Record<string, string> = {
  queued: 'queued',
  sending: 'sending',
  sent: 'sent',
  delivered: 'delivered',
  delivery_unconfirmed: 'sent',
  sending_failed: 'failed',
  delivery_failed: 'failed',
};

interface TelnyxEvent {
  data?: {
    id?: string;
    event_type?: string;
    occurred_at?: string;
    payload?: { id?: string; to?: { status?: string }[]; errors?: { title?: string; detail?: string; code?: string }[] };
  };
}

export const telnyxReceipts: ReceiptReader = {
  async read({ integration, rawBody, headers }) {
    const key = signingKey(integration.configurations?.inboundWebhookSigningKey, 'Telnyx');
    const signature = headers['telnyx-signature-ed25519'];
    const timestamp = headers['telnyx-timestamp'];
    if (!signature || !timestamp) throw new UnauthorizedError('Missing Telnyx signature');
    if (!(Math.abs(Date.now() / 1000 - Number(timestamp)) <= TOLERANCE_SECONDS))
      throw new UnauthorizedError('Telnyx signature timestamp too old or too new');
    let publicKey;
    try {
      publicKey = createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key, 'base64').toString('base64url') },
        format: 'jwk',
      });
    } catch {
      throw new UnauthorizedError('The Telnyx public key on the integration is not an Ed25519 key');
    }
    if (!verify(null, Buffer.from(`${timestamp}|${rawBody}`, 'utf8'), publicKey, Buffer.from(signature, 'base64'))) {
      throw new UnauthorizedError('Invalid Telnyx signature');
    }
    const data = (parseJson(rawBody) as TelnyxEvent | undefined)?.data;
    const vendorStatus = data?.payload?.to?.[0]?.status ?? '';
    const status = STATUS[vendorStatus];
    if (!data?.id || !data.payload?.id || !status) return [];
    const error = data.payload.errors?.[0];
    const response = error && [error.code, error.title, error.detail].filter(Boolean).join(' ');
    return [
      {
        eventId: data.id,
        identifier: data.payload.id,
        status,
        vendorStatus,
        date: validDate(data.occurred_at) ?? new Date().toISOString(),
        ...(response && { response }),
        raw: data,
      },
    ];
  },
};
