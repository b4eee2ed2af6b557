import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, providerMessage, withProviderData, type ProviderAnswer } from '../http.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// Mandrill (Mailchimp Transactional) messages/send: the key travels in the body. Mandrill answers
// every error with 500 and names it (`Invalid_Key`, `ValidationError`, ...); only its
// `GeneralError` is worth another try. A recipient it answers `rejected` or `invalid` for is a
// failure with Mandrill's reason. customData becomes the message's metadata (in its webhooks).

const NAME = 'Mandrill';
const base = (c: Record<string, unknown>) => baseUrlOf('mandrill', c, 'https://mandrillapp.com');
const isFinal = (answer: ProviderAnswer) =>
  answer.status === 500 && valueAt(answer.body, 'status') === 'error' && valueAt(answer.body, 'name') !== 'GeneralError';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const to = [
    ...mail.to.map((email) => ({ email, type: 'to' })),
    ...mail.cc.map((email) => ({ email, type: 'cc' })),
    ...mail.bcc.map((email) => ({ email, type: 'bcc' })),
  ];
  const headers = { ...mail.headers, ...(mail.replyTo && { 'Reply-To': mail.replyTo }) };
  const request = withProviderData(
    {
      url: `${base(c)}/api/1.0/messages/send`,
      json: {
        key: String(c.apiKey ?? ''),
        message: {
          from_email: mail.from.email,
          ...(mail.from.name && { from_name: mail.from.name }),
          to,
          // Mandrill sends each recipient a copy addressed to them alone unless told to show the
          // recipients: needed for a cc to be one (bcc stay hidden by their type).
          preserve_recipients: mail.cc.length > 0,
          subject: mail.subject,
          html: mail.html,
          ...(mail.text && { text: mail.text }),
          ...(Object.keys(headers).length > 0 && { headers }),
          ...(Object.keys(mail.customData).length > 0 && { metadata: mail.customData }),
        },
      },
      isFinal,
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const first = valueAt(answer.body, '0');
  const status = valueAt(first, 'status');
  if (status === 'rejected' || status === 'invalid') {
    const reason = valueAt(first, 'reject_reason') ?? providerMessage(first) ?? status;
    throw new ProviderError(`${NAME} did not send the message: ${String(reason)}`, { status: answer.status, body: answer.body });
  }
  return delivered(NAME, valueAt(first, '_id'), answer.body);
}

/** users/ping: validates the key, sends nothing. */
export async function checkMandrillConnection(integration: ConnectionTarget): Promise<void> {
  const c = integration.credentials;
  await checkCall(NAME, { method: 'POST', url: `${base(c)}/api/1.0/users/ping`, json: { key: String(c.apiKey ?? '') }, isFinal });
}

export const mandrillProvider: DeliveryProvider = { send };
