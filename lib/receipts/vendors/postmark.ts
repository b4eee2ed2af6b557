import type { ReceiptReader } from '../model.ts';
import { parseJson, validDate } from './date.ts';
import { assertBasicAuth } from './basic-auth.ts';

// Postmark's webhooks are not signed: Postmark sends the credentials of the webhook URL as HTTP
// Basic auth (`https://user:<key>@…`), checked against the integration's inboundWebhookSigningKey
// when one is set (basic-auth.ts). `MessageID` is the id the send answered. One POST carries one
// record; Postmark gives no event id, so (record type, message, record id or time) names it.

interface PostmarkRecord {
  RecordType?: string;
  MessageID?: string;
  ID?: number;
  Type?: string;
  Description?: string;
  Details?: string;
  DeliveredAt?: string;
  BouncedAt?: string;
  ReceivedAt?: string;
  ChangedAt?: string;
  SuppressSending?: boolean;
}

function statusOf(r: PostmarkRecord): string | undefined {
  switch (r.RecordType) {
    case 'Delivery':
      return 'delivered';
    case 'Bounce':
      return r.Type === 'Transient' || r.Type === 'SoftBounce' ? 'deferred' : 'bounced';
    case 'SpamComplaint':
      return 'spam';
    case 'Open':
      return 'opened';
    case 'Click':
      return 'clicked';
    case 'SubscriptionChange':
      return r.SuppressSending ? 'unsubscribed' : undefined;
    default:
      return undefined;
  }
}

export const postmarkReceipts: ReceiptReader = {
  async read({ integration, headers, rawBody }) {
    assertBasicAuth(integration, headers, 'Postmark');
    const r = parseJson(rawBody) as PostmarkRecord | undefined;
    const status = r && statusOf(r);
    if (!r?.MessageID || !status) return [];
    const at = r.DeliveredAt ?? r.BouncedAt ?? r.ReceivedAt ?? r.ChangedAt;
    const response = r.Description ?? r.Details;
    return [
      {
        eventId: `${r.RecordType}:${r.MessageID}:${r.ID ?? at ?? ''}`,
        identifier: r.MessageID,
        status,
        vendorStatus: r.RecordType!,
        date: validDate(at) ?? new Date().toISOString(),
        ...(response && { response }),
        raw: r,
      },
    ];
  },
};
