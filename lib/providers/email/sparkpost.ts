import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// SparkPost Transmissions API; the API key is the Authorization header as it is. Region `eu`
// selects SparkPost EU. cc and bcc are recipients addressed to the first `to` (SparkPost's
// header_to), cc also named in the CC header; customData becomes the transmission's metadata.
// No connection check: SparkPost keys carry per-API grants, and one that may only send reads nothing.

const NAME = 'SparkPost';

function base(c: Record<string, unknown>): string {
  const eu =
    String(c.region ?? '')
      .trim()
      .toLowerCase() === 'eu';
  return baseUrlOf('sparkpost', c, eu ? 'https://api.eu.sparkpost.com' : 'https://api.sparkpost.com');
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const headerTo = mail.to[0];
  const copies = (list: string[]) => list.map((email) => ({ address: { email, header_to: headerTo } }));
  const headers = { ...mail.headers, ...(mail.cc.length > 0 && { CC: mail.cc.join(', ') }) };
  const request = withProviderData(
    {
      url: `${base(c)}/api/v1/transmissions`,
      headers: { authorization: String(c.apiKey ?? '') },
      json: {
        recipients: [...mail.to.map((email) => ({ address: { email } })), ...copies(mail.cc), ...copies(mail.bcc)],
        content: {
          from: mail.from,
          subject: mail.subject,
          html: mail.html,
          ...(mail.text && { text: mail.text }),
          ...(mail.replyTo && { reply_to: mail.replyTo }),
          ...(Object.keys(headers).length > 0 && { headers }),
        },
        ...(Object.keys(mail.customData).length > 0 && { metadata: mail.customData }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'results.id'), answer.body);
}

export const sparkpostProvider: DeliveryProvider = { send };
