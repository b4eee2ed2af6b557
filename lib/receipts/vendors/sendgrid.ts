import { createPublicKey, verify } from 'node:crypto';
import { UnauthorizedError } from '../../errors.ts';
import type { Receipt, ReceiptReader } from '../model.ts';
import { signingKey } from './hmac.ts';
import { parseJson, validDate } from './date.ts';

// SendGrid's signed event webhook: an ECDSA (P-256, SHA-256) signature over the timestamp
// header followed by the body, checked with the verification key SendGrid shows (base64 DER,
// stored as the integration's inboundWebhookSigningKey). `sg_message_id` starts with the
// `X-Message-Id` the send answered, then `.filter…`.

const SIGNATURE = 'x-twilio-email-event-webhook-signature';
const TIMESTAMP = 'x-twilio-email-event-webhook-timestamp';

const STATUS: Record<string, string> = {
  processed: 'sent',
  delivered: 'delivered',
  open: 'opened',
  click: 'clicked',
  bounce: 'bounced',
  dropped: 'dropped',
  deferred: 'deferred',
  spamreport: 'spam',
  unsubscribe: 'unsubscribed',
  group_unsubscribe: 'unsubscribed',
};

interface SendGridEvent {
  event?: string;
  sg_event_id?: string;
  sg_message_id?: string;
  timestamp?: number;
  type?: string;
  reason?: string;
  response?: string;
}

export const sendgridReceipts: ReceiptReader = {
  async read({ integration, rawBody, headers }) {
    const key = signingKey(integration.configurations?.inboundWebhookSigningKey, 'SendGrid');
    const signature = headers[SIGNATURE];
    const timestamp = headers[TIMESTAMP];
    if (!signature || !timestamp) throw new UnauthorizedError('Missing SendGrid signature');
    let publicKey;
    try {
      publicKey = createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' });
    } catch {
      throw new UnauthorizedError('The SendGrid verification key on the integration is not a public key');
    }
    if (
      !verify('sha256', Buffer.from(timestamp + rawBody, 'utf8'), { key: publicKey, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'))
    ) {
      throw new UnauthorizedError('Invalid SendGrid signature');
    }
    const events = parseJson(rawBody);
    if (!Array.isArray(events)) return [];
    return (events as SendGridEvent[]).flatMap((e): Receipt[] => {
      const status = e.event === 'bounce' && e.type === 'blocked' ? 'blocked' : STATUS[e.event ?? ''];
      const identifier = e.sg_message_id?.split('.')[0];
      if (!status || !identifier || !e.sg_event_id) return [];
      const response = e.response ?? e.reason;
      return [
        {
          eventId: e.sg_event_id,
          identifier,
          status,
          vendorStatus: e.event!,
          date: validDate(typeof e.timestamp === 'number' ? e.timestamp * 1000 : undefined) ?? new Date().toISOString(),
          ...(response && { response }),
          raw: e,
        },
      ];
    });
  },
};
