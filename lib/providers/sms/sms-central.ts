import { randomUUID } from 'node:crypto';
import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused } from '../result.ts';
import { smsMessage } from './message.ts';

// SMS Central API v3.2: a form POST with upper-case parameters, the account's username and
// password among them (its `baseUrl` credential is the whole API URL). It answers a text code, 0
// meaning sent, and gives no message id: ours is the id kept and is sent as the message's
// REFERENCE, which SMS Central returns in its delivery receipts. No call checks the account
// without sending.

const NAME = 'SMS Central';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const reference = randomUUID();
  const request = withProviderData(
    {
      url: baseUrlOf('sms-central', c, 'https://my.smscentral.com.au/api/v3.2'),
      form: {
        ACTION: 'send',
        USERNAME: String(c.user ?? ''),
        PASSWORD: String(c.password ?? ''),
        ORIGINATOR: sms.from ?? '',
        RECIPIENT: sms.to,
        MESSAGE_TEXT: sms.content,
        REFERENCE: reference,
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const code = String(answer.body).trim();
  if (code !== '0') throw refused(NAME, `code ${code}`, answer);
  return delivered(NAME, reference, { status: answer.status, body: answer.body });
}

export const smsCentralProvider: DeliveryProvider = { send };
