import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// SimpleTexting API v2 (Bearer token): the sender is the account's phone number, strictly one SMS
// (no MMS conversion), as the reference sends.

const NAME = 'SimpleTexting';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('simpletexting', c, 'https://api-app2.simpletexting.com')}/v2/api/messages`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: { contactPhone: sms.to, accountPhone: sms.from ?? '', mode: 'SINGLE_SMS_STRICTLY', text: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

export const simpletextingProvider: DeliveryProvider = { send };
