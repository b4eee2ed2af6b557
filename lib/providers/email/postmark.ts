import { baseUrlOf } from '../base-url.ts';
import { stringValues } from '../deep-merge.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { emailMessage, formatAddress } from './message.ts';

// Postmark single email API; apiKey is the server token. customData becomes Metadata.

const NAME = 'Postmark';
const base = (c: Record<string, unknown>) => baseUrlOf('postmark', c, 'https://api.postmarkapp.com');
const auth = (c: Record<string, unknown>) => ({ 'x-postmark-server-token': String(c.apiKey ?? '') });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const headers = Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value }));
  const metadata = stringValues(mail.customData);
  const request = withProviderData(
    {
      url: `${base(c)}/email`,
      headers: auth(c),
      json: {
        From: formatAddress(mail.from),
        To: mail.to.join(','),
        ...(mail.cc.length > 0 && { Cc: mail.cc.join(',') }),
        ...(mail.bcc.length > 0 && { Bcc: mail.bcc.join(',') }),
        ...(mail.replyTo && { ReplyTo: mail.replyTo }),
        Subject: mail.subject,
        HtmlBody: mail.html,
        ...(mail.text && { TextBody: mail.text }),
        ...(headers.length > 0 && { Headers: headers }),
        ...(Object.keys(metadata).length > 0 && { Metadata: metadata }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'MessageID'), answer.body);
}

/** Reads the server the token belongs to: nothing is sent. */
export async function checkPostmarkConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/server`, headers: auth(integration.credentials) });
}

export const postmarkProvider: DeliveryProvider = { send };
