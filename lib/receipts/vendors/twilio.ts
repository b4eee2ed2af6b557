import type { ReceiptReader } from '../model.ts';
import { assertHmac, authToken, sortedParams } from './hmac.ts';

// Twilio's status callbacks: a form-encoded POST signed in `X-Twilio-Signature`, the base64
// HMAC-SHA1 under the account's auth token of the URL Twilio called followed by each parameter's
// name and value, sorted by name (Twilio's "Webhooks security"). Node's crypto does it; the
// `twilio` package's validateRequest would pull its whole SDK into this function. Twilio sends
// no event id and no time: a status of a message happens once, so (MessageSid, MessageStatus)
// identifies the receipt, and it happened when it came.

/** Twilio's statuses in the reference's sms words; others (scheduled, receiving, ...) record nothing. */
const STATUS: Record<string, string> = {
  accepted: 'accepted',
  queued: 'queued',
  sending: 'sending',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
};

export const twilioReceipts: ReceiptReader = {
  async read({ integration, rawBody, headers, url }) {
    const token = authToken(integration.credentials, 'Twilio');
    const params = new URLSearchParams(rawBody);
    assertHmac('sha1', token, url + sortedParams(params), headers['x-twilio-signature'], 'base64', 'Twilio');

    const sid = params.get('MessageSid') ?? params.get('SmsSid');
    const vendorStatus = params.get('MessageStatus') ?? params.get('SmsStatus') ?? '';
    const status = STATUS[vendorStatus];
    if (!sid || !status) return [];
    const code = params.get('ErrorCode');
    return [
      {
        eventId: `${sid}:${vendorStatus}`,
        identifier: sid,
        status,
        vendorStatus,
        date: new Date().toISOString(),
        ...(code && { response: `Twilio error ${code}` }),
        raw: Object.fromEntries(params),
      },
    ];
  },
};
