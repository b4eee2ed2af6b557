import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage } from './message.ts';

// Brevo (formerly Sendinblue, provider id `sendinblue`) transactional email API. customData
// travels in Brevo's X-Mailin-custom header, which its webhooks echo back.

const NAME = 'Brevo';
const base = (c: Record<string, unknown>) => baseUrlOf('sendinblue', c, 'https://api.brevo.com');
const auth = (c: Record<string, unknown>) => ({ 'api-key': String(c.apiKey ?? '') });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const emails = (list: string[]) => list.map((email) => ({ email }));
  const headers = {
    ...mail.headers,
    ...(Object.keys(mail.customData).length > 0 && { 'X-Mailin-custom': JSON.stringify(mail.customData) }),
  };
  const request = withProviderData(
    {
      url: `${base(c)}/v3/smtp/email`,
      headers: auth(c),
      json: {
        sender: mail.from,
        to: emails(mail.to),
        ...(mail.cc.length > 0 && { cc: emails(mail.cc) }),
        ...(mail.bcc.length > 0 && { bcc: emails(mail.bcc) }),
        ...(mail.replyTo && { replyTo: { email: mail.replyTo } }),
        subject: mail.subject,
        htmlContent: mail.html,
        ...(mail.text && { textContent: mail.text }),
        ...(Object.keys(headers).length > 0 && { headers }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'messageId'), answer.body);
}

/** Reads the account the key belongs to: nothing is sent. */
export async function checkBrevoConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/v3/account`, headers: auth(integration.credentials) });
}

export const brevoProvider: DeliveryProvider = { send };
