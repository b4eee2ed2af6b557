import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Maqsam SMS API v2: JSON POST, Basic auth with the access key id and secret. It answers
// `result: "success"` with the message's `identifier`. Maqsam documents no call that only checks
// the keys, so `check: true` cannot test them.

const NAME = 'Maqsam';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('maqsam', c, 'https://api.maqsam.com')}/v2/sms`,
      headers: { authorization: basicAuth(String(c.apiKey ?? ''), String(c.secretKey ?? '')) },
      json: { to: sms.to, message: sms.content, sender: sms.from ?? '' },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const result = valueAt(answer.body, 'result');
  if (result !== undefined && result !== 'success') throw refused(NAME, valueAt(answer.body, 'message') ?? result, answer);
  return delivered(NAME, valueAt(answer.body, 'message.identifier'), answer.body);
}

export const maqsamProvider: DeliveryProvider = { send };
