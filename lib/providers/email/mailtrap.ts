import { baseUrlOf } from '../base-url.ts';
import { stringValues } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// Mailtrap Email Sending API (transactional stream, Bearer token). customData becomes Mailtrap's
// custom_variables (echoed in its webhooks); the answer lists one message id per recipient, the
// first is kept. No connection check: sending tokens are scoped to the send hosts, and nothing
// there reads without sending.

const NAME = 'Mailtrap';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const emails = (list: string[]) => list.map((email) => ({ email }));
  const variables = stringValues(mail.customData);
  const request = withProviderData(
    {
      url: `${baseUrlOf('mailtrap', c, 'https://send.api.mailtrap.io')}/api/send`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: {
        from: mail.from,
        to: emails(mail.to),
        ...(mail.cc.length > 0 && { cc: emails(mail.cc) }),
        ...(mail.bcc.length > 0 && { bcc: emails(mail.bcc) }),
        ...(mail.replyTo && { reply_to: { email: mail.replyTo } }),
        subject: mail.subject,
        html: mail.html,
        ...(mail.text && { text: mail.text }),
        ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
        ...(Object.keys(variables).length > 0 && { custom_variables: variables }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'message_ids.0'), answer.body);
}

export const mailtrapProvider: DeliveryProvider = { send };
