import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Telnyx Messaging API v2, sent through the integration's messaging profile.

const NAME = 'Telnyx';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('telnyx', c, 'https://api.telnyx.com')}/v2/messages`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: { from: sms.from ?? '', to: sms.to, text: sms.content, messaging_profile_id: String(c.messageProfileId ?? '') },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'data.id'), answer.body);
}

export const telnyxProvider: DeliveryProvider = { send };
