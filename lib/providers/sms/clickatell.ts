import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Clickatell Platform (One API): the API key as the Authorization header. Its catalogue entry has
// no sender: `from` goes only when the step or trigger names one (a two-way number). It answers
// 202 with a verdict per recipient; a refused recipient fails with Clickatell's reason.

const NAME = 'Clickatell';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('clickatell', c, 'https://platform.clickatell.com')}/messages`,
      headers: { authorization: String(c.apiKey ?? '') },
      json: { to: [sms.to], ...(sms.from && { from: sms.from }), content: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const message = valueAt(answer.body, 'messages.0') as { accepted?: boolean; errorDescription?: string; error?: string } | undefined;
  if (message?.accepted === false) {
    throw refused(NAME, message.errorDescription ?? message.error ?? 'not accepted', answer);
  }
  return delivered(NAME, valueAt(answer.body, 'messages.0.apiMessageId'), answer.body);
}

export const clickatellProvider: DeliveryProvider = { send };
