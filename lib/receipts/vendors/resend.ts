import { Webhook } from 'standardwebhooks';
import { UnauthorizedError } from '../../errors.ts';
import type { ReceiptReader } from '../model.ts';
import { parseJson, validDate } from './date.ts';
import { signingKey } from './hmac.ts';

// Resend's webhooks are sent through Svix: Standard Webhooks signatures (`svix-id`,
// `svix-timestamp`, `svix-signature`) under the endpoint's `whsec_` secret (the integration's
// inboundWebhookSigningKey), verified with the `standardwebhooks` library, which also refuses a
// timestamp more than five minutes off (a replay). `data.email_id` is the id the send answered.

const STATUS: Record<string, string> = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.delivery_delayed': 'deferred',
  'email.complained': 'spam',
  'email.bounced': 'bounced',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
  'email.failed': 'rejected',
};

interface ResendEvent {
  type?: string;
  created_at?: string;
  data?: { email_id?: string; bounce?: { message?: string }; failed?: { reason?: string } };
}

export const resendReceipts: ReceiptReader = {
  async read({ integration, rawBody, headers }) {
    const secret = signingKey(integration.configurations?.inboundWebhookSigningKey, 'Resend');
    const id = headers['svix-id'] ?? headers['webhook-id'];
    try {
      new Webhook(secret).verify(rawBody, {
        'webhook-id': id ?? '',
        'webhook-timestamp': headers['svix-timestamp'] ?? headers['webhook-timestamp'] ?? '',
        'webhook-signature': headers['svix-signature'] ?? headers['webhook-signature'] ?? '',
      });
    } catch {
      throw new UnauthorizedError('Invalid Resend (Svix) signature');
    }
    const event = parseJson(rawBody) as ResendEvent | undefined;
    const status = STATUS[event?.type ?? ''];
    const identifier = event?.data?.email_id;
    if (!status || !identifier || !id) return [];
    const response = event!.data!.bounce?.message ?? event!.data!.failed?.reason;
    return [
      {
        eventId: id,
        identifier,
        status,
        vendorStatus: event!.type!,
        date: validDate(event!.created_at) ?? new Date().toISOString(),
        ...(response && { response }),
        raw: event,
      },
    ];
  },
};
