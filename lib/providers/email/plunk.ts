import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// Plunk transactional send (Bearer secret key). The answer lists, per recipient, its contact and
// the email's id; the email's id is kept. Plunk has no cc or bcc: a message asking for them fails
// rather than going out without them. Its body is the HTML alone, with no plain-text part or
// metadata, so a text override and customData have no place in the request. No connection check: no call is documented as reading
// with a secret key without changing anything.

const NAME = 'Plunk';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  if (mail.cc.length > 0 || mail.bcc.length > 0)
    throw new ProviderError(`${NAME} cannot send cc or bcc copies`, { cc: mail.cc, bcc: mail.bcc });
  const request = withProviderData(
    {
      url: `${baseUrlOf('plunk', c, 'https://api.useplunk.com')}/v1/send`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: {
        to: mail.to.length === 1 ? mail.to[0] : mail.to,
        subject: mail.subject,
        body: mail.html,
        from: mail.from.email,
        ...(mail.from.name && { name: mail.from.name }),
        ...(mail.replyTo && { reply: mail.replyTo }),
        ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'emails.0.email'), answer.body);
}

export const plunkProvider: DeliveryProvider = { send };
