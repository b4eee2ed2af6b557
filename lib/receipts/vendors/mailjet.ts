import type { Receipt, ReceiptReader } from '../model.ts';
import { assertBasicAuth } from './basic-auth.ts';
import { parseJson, validDate } from './date.ts';

// Mailjet's event webhook is not signed: Mailjet sends the credentials of the webhook URL as HTTP
// Basic auth, checked against the integration's inboundWebhookSigningKey when one is set
// (basic-auth.ts). One POST carries one event, or a list of them when the account groups events.
// The message is named by `Message_GUID`, the `MessageUUID` the send answered and stored: its
// numeric `MessageID` is larger than a JSON number holds exactly (see providers/email/mailjet.ts).

interface MailjetEvent {
  event?: string;
  time?: number;
  Message_GUID?: string;
  mj_message_id?: string;
  hard_bounce?: boolean;
  error_related_to?: string;
  error?: string;
  comment?: string;
  smtp_reply?: string;
}

function statusOf(e: MailjetEvent): string | undefined {
  switch (e.event) {
    case 'sent':
      return 'delivered';
    case 'open':
      return 'opened';
    case 'click':
      return 'clicked';
    case 'bounce':
      return e.hard_bounce === false ? 'deferred' : 'bounced';
    case 'blocked':
      return 'blocked';
    case 'spam':
      return 'spam';
    case 'unsub':
      return 'unsubscribed';
    default:
      return undefined;
  }
}

function receiptOf(e: MailjetEvent): Receipt | undefined {
  const status = statusOf(e);
  if (!status || !e.Message_GUID) return undefined;
  const response = e.smtp_reply ?? ([e.error_related_to, e.error].filter(Boolean).join(': ') || e.comment);
  const date = validDate(typeof e.time === 'number' ? e.time * 1000 : undefined) ?? new Date().toISOString();
  return {
    eventId: `${e.event}:${e.Message_GUID}:${e.time ?? ''}`,
    identifier: e.Message_GUID,
    status,
    vendorStatus: e.event!,
    date,
    ...(response && { response }),
    raw: e,
  };
}

export const mailjetReceipts: ReceiptReader = {
  async read({ integration, headers, rawBody }) {
    assertBasicAuth(integration, headers, 'Mailjet');
    const body = parseJson(rawBody);
    const events = (Array.isArray(body) ? body : [body]).filter((e): e is MailjetEvent => typeof e === 'object' && e !== null);
    return events.flatMap((e) => receiptOf(e) ?? []);
  },
};
