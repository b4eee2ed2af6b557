import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// MessageBird (Bird) SMS messaging API, authorized with the access key.

const NAME = 'MessageBird';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('messagebird', c, 'https://rest.messagebird.com')}/messages`,
      headers: { authorization: `AccessKey ${String(c.accessKey ?? '')}` },
      json: { originator: sms.from ?? '', recipients: [sms.to], body: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

export const messagebirdProvider: DeliveryProvider = { send };
