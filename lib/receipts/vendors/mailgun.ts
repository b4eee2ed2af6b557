import { UnauthorizedError } from '../../errors.ts';
import type { ReceiptReader } from '../model.ts';
import { parseJson, validDate } from './date.ts';
import { assertHmac, signingKey } from './hmac.ts';

// Mailgun's webhooks: JSON with `signature: {timestamp, token, signature}`, the hex
// HMAC-SHA256 of timestamp and token under the webhook signing key (the integration's
// inboundWebhookSigningKey), and `event-data`. The message id there comes without the angle
// brackets the send's answer put around it.

const STATUS: Record<string, string> = {
  accepted: 'sent',
  delivered: 'delivered',
  opened: 'opened',
  clicked: 'clicked',
  unsubscribed: 'unsubscribed',
  complained: 'spam',
  rejected: 'rejected',
};

interface MailgunBody {
  signature?: { timestamp?: string; token?: string; signature?: string };
  'event-data'?: {
    id?: string;
    event?: string;
    severity?: string;
    timestamp?: number;
    message?: { headers?: { 'message-id'?: string } };
    'delivery-status'?: { message?: string; description?: string; code?: number };
    reason?: string;
  };
}

export const mailgunReceipts: ReceiptReader = {
  async read({ integration, rawBody }) {
    const key = signingKey(integration.configurations?.inboundWebhookSigningKey, 'Mailgun');
    const body = parseJson(rawBody) as MailgunBody | undefined;
    const signature = body?.signature;
    if (!signature?.timestamp || !signature.token) throw new UnauthorizedError('Missing Mailgun signature');
    assertHmac('sha256', key, signature.timestamp + signature.token, signature.signature, 'hex', 'Mailgun');

    const e = body!['event-data'];
    const vendorStatus = e?.event ?? '';
    const status = vendorStatus === 'failed' ? (e?.severity === 'temporary' ? 'deferred' : 'bounced') : STATUS[vendorStatus];
    const messageId = e?.message?.headers?.['message-id'];
    if (!e?.id || !status || !messageId) return [];
    const response = e['delivery-status']?.description || e['delivery-status']?.message || e.reason;
    return [
      {
        eventId: e.id,
        identifier: `<${messageId}>`,
        status,
        vendorStatus,
        date: validDate(typeof e.timestamp === 'number' ? e.timestamp * 1000 : undefined) ?? new Date().toISOString(),
        ...(response && { response }),
        raw: e,
      },
    ];
  },
};
