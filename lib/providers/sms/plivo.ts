import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Plivo Message API: accountSid is the auth id, token the auth token (Basic auth).

const NAME = 'Plivo';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const authId = String(c.accountSid ?? '');
  const request = withProviderData(
    {
      url: `${baseUrlOf('plivo', c, 'https://api.plivo.com')}/v1/Account/${encodeURIComponent(authId)}/Message/`,
      headers: { authorization: basicAuth(authId, String(c.token ?? '')) },
      json: { src: sms.from ?? '', dst: sms.to, text: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'message_uuid.0'), answer.body);
}

export const plivoProvider: DeliveryProvider = { send };
