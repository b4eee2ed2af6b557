import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage, formatAddress } from './message.ts';

// Infobip Email API v3 (`infobip-email`), multipart/form-data to the account's own base URL,
// authorized with `App <apiKey>`. A message Infobip marks REJECTED in its answer fails with
// Infobip's description. Headers go as its `headers` field (JSON), customData as `callbackData`
// (handed back in Infobip's delivery reports).
// No connection check: Infobip keys carry scopes, and one that may only send reads nothing.

const NAME = 'Infobip';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const form: Record<string, string | string[]> = { from: formatAddress(mail.from), to: mail.to, subject: mail.subject, html: mail.html };
  if (mail.cc.length > 0) form.cc = mail.cc;
  if (mail.bcc.length > 0) form.bcc = mail.bcc;
  if (mail.text) form.text = mail.text;
  if (mail.replyTo) form.replyTo = mail.replyTo;
  if (Object.keys(mail.headers).length > 0) form.headers = JSON.stringify(mail.headers);
  if (Object.keys(mail.customData).length > 0) form.callbackData = JSON.stringify(mail.customData);
  const request = withProviderData(
    {
      url: `${baseUrlOf('infobip-email', c, 'https://api.infobip.com')}/email/3/send`,
      headers: { authorization: `App ${String(c.apiKey ?? '')}` },
      multipart: form,
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const message = valueAt(answer.body, 'messages.0');
  if (valueAt(message, 'status.groupName') === 'REJECTED') {
    throw new ProviderError(
      `${NAME} rejected the message: ${String(valueAt(message, 'status.description') ?? valueAt(message, 'status.name'))}`,
      { status: answer.status, body: answer.body },
    );
  }
  return delivered(NAME, valueAt(message, 'messageId'), answer.body);
}

export const infobipEmailProvider: DeliveryProvider = { send };
