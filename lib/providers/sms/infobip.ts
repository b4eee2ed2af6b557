import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Infobip SMS (`infobip-sms`): every Infobip account has its own base URL (required credential,
// often a bare host name), authorized with `App <apiKey>`.

const NAME = 'Infobip';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('infobip-sms', c, 'https://api.infobip.com')}/sms/2/text/advanced`,
      headers: { authorization: `App ${String(c.apiKey ?? '')}` },
      json: { messages: [{ ...(sms.from && { from: sms.from }), destinations: [{ to: sms.to }], text: sms.content }] },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'messages.0.messageId'), answer.body);
}

export const infobipSmsProvider: DeliveryProvider = { send };
