import { baseUrlOf } from '../base-url.ts';
import { stringValues } from '../deep-merge.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered } from '../result.ts';
import { emailMessage } from './message.ts';

// SendGrid v3 Mail Send. customData becomes custom_args (SendGrid wants string values); region
// `eu` selects SendGrid's EU endpoint. The message id comes back in the X-Message-Id header.

const NAME = 'SendGrid';

export function sendgridApiBase(credentials: Record<string, unknown>): string {
  const eu =
    String(credentials.region ?? '')
      .trim()
      .toLowerCase() === 'eu';
  return baseUrlOf('sendgrid', credentials, eu ? 'https://api.eu.sendgrid.com' : 'https://api.sendgrid.com');
}

const auth = (credentials: Record<string, unknown>) => ({ authorization: `Bearer ${String(credentials.apiKey ?? '')}` });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const credentials = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const emails = (list: string[]) => list.map((email) => ({ email }));
  const customArgs = stringValues(mail.customData);
  const request = withProviderData(
    {
      url: `${sendgridApiBase(credentials)}/v3/mail/send`,
      headers: auth(credentials),
      json: {
        personalizations: [
          {
            to: emails(mail.to),
            ...(mail.cc.length > 0 && { cc: emails(mail.cc) }),
            ...(mail.bcc.length > 0 && { bcc: emails(mail.bcc) }),
          },
        ],
        from: mail.from,
        ...(mail.replyTo && { reply_to: { email: mail.replyTo } }),
        subject: mail.subject,
        // SendGrid wants text/plain before text/html.
        content: [...(mail.text ? [{ type: 'text/plain', value: mail.text }] : []), { type: 'text/html', value: mail.html }],
        ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
        ...(Object.keys(customArgs).length > 0 && { custom_args: customArgs }),
        ...(mail.ipPoolName && { ip_pool_name: mail.ipPoolName }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const id = answer.headers.get('x-message-id');
  return delivered(NAME, id, { status: answer.status, messageId: id });
}

/** Lists the key's scopes: any valid key may, and nothing is sent. */
export async function checkSendgridConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${sendgridApiBase(integration.credentials)}/v3/scopes`, headers: auth(integration.credentials) });
}

export const sendgridProvider: DeliveryProvider = { send };
