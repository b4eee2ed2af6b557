import { baseUrlOf } from '../base-url.ts';
import { callProvider, providerMessage, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// AfroMessage (afromessage.com) send API, Bearer token: `from` is the account's identifier id,
// `sender` its approved sender name. It answers 200 with `acknowledge: "success"` and the
// `response.message_id`, or `acknowledge: "error"` with its errors. AfroMessage has no call that
// only checks the token, so `check: true` cannot test it.

const NAME = 'AfroMessage';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('afro-message', c, 'https://api.afromessage.com')}/api/send`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: { from: sms.from ?? '', sender: String(c.senderName ?? ''), to: sms.to, message: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  if (valueAt(answer.body, 'acknowledge') !== 'success') throw refused(NAME, providerMessage(valueAt(answer.body, 'response')), answer);
  return delivered(NAME, valueAt(answer.body, 'response.message_id'), answer.body);
}

export const afroMessageProvider: DeliveryProvider = { send };
