import type { ReceiptReader } from '../model.ts';
import { assertBasicAuth } from './basic-auth.ts';
import { parseJson, validDate } from './date.ts';

// Brevo's transactional webhooks are not signed: a webhook made with Basic auth (or with the
// credentials in its URL) sends them, checked against inboundWebhookSigningKey when it is set
// (basic-auth.ts). `message-id` is the id the send answered, angle brackets and all. Brevo gives
// no event id: (event, message, its time) names one.

const STATUS: Record<string, string> = {
  request: 'sent',
  delivered: 'delivered',
  opened: 'opened',
  unique_opened: 'opened',
  click: 'clicked',
  soft_bounce: 'deferred',
  deferred: 'deferred',
  hard_bounce: 'bounced',
  invalid_email: 'rejected',
  error: 'rejected',
  blocked: 'blocked',
  spam: 'spam',
  complaint: 'spam',
  unsubscribed: 'unsubscribed',
};

interface BrevoEvent {
  event?: string;
  'message-id'?: string;
  ts_event?: number;
  ts_epoch?: number;
  reason?: string;
}

export const brevoReceipts: ReceiptReader = {
  async read({ integration, headers, rawBody }) {
    assertBasicAuth(integration, headers, 'Brevo');
    const e = parseJson(rawBody) as BrevoEvent | undefined;
    const status = STATUS[e?.event ?? ''];
    const identifier = e?.['message-id'];
    if (!status || !identifier) return [];
    const at = e!.ts_epoch ?? (typeof e!.ts_event === 'number' ? e!.ts_event * 1000 : undefined);
    return [
      {
        eventId: `${e!.event}:${identifier}:${at ?? ''}`,
        identifier,
        status,
        vendorStatus: e!.event!,
        date: validDate(at) ?? new Date().toISOString(),
        ...(e!.reason && { response: e!.reason }),
        raw: e,
      },
    ];
  },
};
