import { baseUrlOf } from '../base-url.ts';
import { stringValues } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// Netcore Email API (formerly Pepipost) v5.1 mail/send, the key in the `api_key` header.
// Recipients, cc, bcc and headers go in one personalization; customData becomes its attributes.
// Its content takes HTML (or AMP) only: a plain-text override has no place in the request.
// No connection check: Netcore's email API has no call that reads the account without sending.

const NAME = 'Netcore';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const emails = (list: string[]) => list.map((email) => ({ email }));
  const attributes = stringValues(mail.customData);
  const request = withProviderData(
    {
      url: `${baseUrlOf('netcore', c, 'https://emailapi.netcorecloud.net')}/v5.1/mail/send`,
      headers: { api_key: String(c.apiKey ?? '') },
      json: {
        from: mail.from,
        ...(mail.replyTo && { reply_to: mail.replyTo }),
        subject: mail.subject,
        content: [{ type: 'html', value: mail.html }],
        personalizations: [
          {
            to: emails(mail.to),
            ...(mail.cc.length > 0 && { cc: emails(mail.cc) }),
            ...(mail.bcc.length > 0 && { bcc: emails(mail.bcc) }),
            ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
            ...(Object.keys(attributes).length > 0 && { attributes }),
          },
        ],
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'data.message_id'), answer.body);
}

export const netcoreProvider: DeliveryProvider = { send };
