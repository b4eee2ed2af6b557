import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage, formatAddress } from './message.ts';

// Mailgun Messages API (form-encoded). Headers go as `h:<name>`, customData as `v:<key>`
// variables (echoed in Mailgun's events). The EU region is the baseUrl https://api.eu.mailgun.net.

const NAME = 'Mailgun';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const form: Record<string, string | string[]> = {
    from: formatAddress(mail.from),
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
  };
  if (mail.cc.length > 0) form.cc = mail.cc;
  if (mail.bcc.length > 0) form.bcc = mail.bcc;
  if (mail.text) form.text = mail.text;
  if (mail.replyTo) form['h:Reply-To'] = mail.replyTo;
  for (const [key, value] of Object.entries(mail.headers)) form[`h:${key}`] = value;
  for (const [key, value] of Object.entries(mail.customData)) form[`v:${key}`] = typeof value === 'string' ? value : JSON.stringify(value);

  const base = baseUrlOf('mailgun', c, 'https://api.mailgun.net');
  const request = withProviderData(
    {
      url: `${base}/v3/${encodeURIComponent(String(c.domain ?? ''))}/messages`,
      headers: { authorization: basicAuth(String(c.user ?? '').trim() || 'api', String(c.apiKey ?? '')) },
      form,
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

export const mailgunProvider: DeliveryProvider = { send };
