import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// sms77 (now seven.io) SMS gateway: the API key in X-Api-Key, `json: 1` for a detailed answer.
// It answers 200 even when it refuses: its `success` code is 100 when sent, else the reason
// (900 authentication failed, 202 invalid recipient, 500 no credit, ...).

const NAME = 'sms77';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('sms77', c, 'https://gateway.sms77.io')}/api/sms`,
      headers: { 'x-api-key': String(c.apiKey ?? '') },
      json: { to: sms.to, text: sms.content, ...(sms.from && { from: sms.from }), json: 1 },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const code = typeof answer.body === 'object' ? valueAt(answer.body, 'success') : answer.body;
  if (String(code) !== '100') {
    const said = valueAt(answer.body, 'messages.0.error_text');
    throw refused(NAME, `code ${String(code)}${typeof said === 'string' && said ? ` (${said})` : ''}`, answer);
  }
  return delivered(NAME, valueAt(answer.body, 'messages.0.id'), answer.body);
}

export const sms77Provider: DeliveryProvider = { send };
