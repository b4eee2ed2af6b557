import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Eazy (eazy.im) API v3: a text message to `<number>@sms.eazy.im` through the integration's SMS
// channel, Bearer token. The sender is the channel's, so no `from` is sent. Eazy documents no
// call that only checks the token, so `check: true` cannot test it.

const NAME = 'Eazy';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const channel = encodeURIComponent(String(c.channelId ?? ''));
  const recipient = encodeURIComponent(`${sms.to}@sms.eazy.im`);
  const request = withProviderData(
    {
      url: `${baseUrlOf('eazy-sms', c, 'https://api.eazy.im')}/v3/channels/${channel}/messages/${recipient}`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: { message: { type: 'text', text: sms.content } },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

export const eazySmsProvider: DeliveryProvider = { send };
