import type { Receipt, ReceiptReader } from '../model.ts';
import { parseJson, validDate } from './date.ts';
import { confirmSubscription, parseSnsMessage, verifySnsMessage } from './sns.ts';

// Amazon SES publishes its events through an SNS topic subscribed to the receipt URL: either a
// configuration set's event publishing (`eventType`) or an identity's notifications
// (`notificationType`). `mail.messageId` is the id SendEmail answered. A subscription's
// confirmation is answered by confirming it; nothing is recorded for it.

const STATUS: Record<string, string> = {
  Send: 'sent',
  Delivery: 'delivered',
  Bounce: 'bounced',
  Complaint: 'spam',
  Reject: 'rejected',
  Open: 'opened',
  Click: 'clicked',
  DeliveryDelay: 'deferred',
  'Rendering Failure': 'rejected',
  Subscription: 'unsubscribed',
};

interface SesEvent {
  eventType?: string;
  notificationType?: string;
  mail?: { messageId?: string; timestamp?: string };
  bounce?: { bounceType?: string; bounceSubType?: string; timestamp?: string; bouncedRecipients?: { diagnosticCode?: string }[] };
  delivery?: { timestamp?: string; smtpResponse?: string };
  complaint?: { timestamp?: string; complaintFeedbackType?: string };
  reject?: { reason?: string };
  open?: { timestamp?: string };
  click?: { timestamp?: string; link?: string };
  deliveryDelay?: { timestamp?: string; delayType?: string };
  failure?: { errorMessage?: string };
}

export const sesReceipts: ReceiptReader = {
  async read({ rawBody }) {
    const sns = parseSnsMessage(rawBody);
    await verifySnsMessage(sns);
    if (sns.Type === 'SubscriptionConfirmation') {
      await confirmSubscription(sns);
      return [];
    }
    if (sns.Type !== 'Notification') return [];
    const event = (parseJson(sns.Message) ?? {}) as SesEvent;
    const type = event.eventType ?? event.notificationType ?? '';
    const status = STATUS[type];
    const identifier = event.mail?.messageId;
    if (!status || !identifier) return [];
    const receipt: Receipt = {
      eventId: sns.MessageId,
      identifier,
      status,
      vendorStatus: type,
      date: validDate(whenOf(event)) ?? validDate(sns.Timestamp) ?? new Date().toISOString(),
      raw: event,
    };
    const response = responseOf(event);
    return [response ? { ...receipt, response } : receipt];
  },
};

function whenOf(e: SesEvent): string | undefined {
  return (
    e.delivery?.timestamp ??
    e.bounce?.timestamp ??
    e.complaint?.timestamp ??
    e.open?.timestamp ??
    e.click?.timestamp ??
    e.deliveryDelay?.timestamp
  );
}

function responseOf(e: SesEvent): string | undefined {
  return (
    (e.bounce?.bouncedRecipients?.[0]?.diagnosticCode ??
      (e.bounce && [e.bounce.bounceType, e.bounce.bounceSubType].filter(Boolean).join(' ')) ??
      e.delivery?.smtpResponse ??
      e.complaint?.complaintFeedbackType ??
      e.reject?.reason ??
      e.deliveryDelay?.delayType ??
      e.failure?.errorMessage ??
      undefined) ||
    undefined
  );
}
