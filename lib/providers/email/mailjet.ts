import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, providerMessage, withProviderData } from '../http.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// Mailjet Send API v3.1 (apiKey and secretKey as Basic auth). customData travels as the
// EventPayload Mailjet hands back in its events. Each message of the answer has its own Status.
// The message is kept by its MessageUUID: the numeric MessageID is larger than a JSON number
// holds exactly, and the UUID is what Mailjet's events name it by (`Message_GUID`), for receipts.

const NAME = 'Mailjet';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const emails = (list: string[]) => list.map((Email) => ({ Email }));
  const request = withProviderData(
    {
      url: `${baseUrlOf('mailjet', c, 'https://api.mailjet.com')}/v3.1/send`,
      headers: { authorization: basicAuth(String(c.apiKey ?? ''), String(c.secretKey ?? '')) },
      json: {
        Messages: [
          {
            From: { Email: mail.from.email, ...(mail.from.name && { Name: mail.from.name }) },
            To: emails(mail.to),
            ...(mail.cc.length > 0 && { Cc: emails(mail.cc) }),
            ...(mail.bcc.length > 0 && { Bcc: emails(mail.bcc) }),
            ...(mail.replyTo && { ReplyTo: { Email: mail.replyTo } }),
            Subject: mail.subject,
            HTMLPart: mail.html,
            ...(mail.text && { TextPart: mail.text }),
            ...(Object.keys(mail.headers).length > 0 && { Headers: mail.headers }),
            ...(Object.keys(mail.customData).length > 0 && { EventPayload: JSON.stringify(mail.customData) }),
          },
        ],
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  if (valueAt(answer.body, 'Messages.0.Status') !== 'success') {
    throw new ProviderError(
      `${NAME} did not send the message: ${providerMessage(valueAt(answer.body, 'Messages.0')) ?? 'no reason given'}`,
      { status: answer.status, body: answer.body },
    );
  }
  const to = 'Messages.0.To.0';
  return delivered(NAME, valueAt(answer.body, `${to}.MessageUUID`) ?? valueAt(answer.body, `${to}.MessageID`), answer.body);
}

export const mailjetProvider: DeliveryProvider = { send };
