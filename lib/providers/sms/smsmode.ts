import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// smsmode SMS API v1 (the API key in X-Api-Key): one message, answered 201 with its messageId.

const NAME = 'smsmode';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('smsmode', c, 'https://rest.smsmode.com')}/sms/v1/messages`,
      headers: { 'x-api-key': String(c.apiKey ?? '') },
      json: { from: sms.from ?? '', recipient: { to: sms.to }, body: { text: sms.content } },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'messageId'), answer.body);
}

export const smsmodeProvider: DeliveryProvider = { send };
