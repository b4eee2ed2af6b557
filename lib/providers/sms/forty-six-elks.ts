import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// 46elks API: form POST, Basic auth with the API username and password. Errors answer 4xx in text.

const NAME = '46elks';
const base = (c: Record<string, unknown>) => baseUrlOf('forty-six-elks', c, 'https://api.46elks.com');
const auth = (c: Record<string, unknown>) => ({ authorization: basicAuth(String(c.user ?? ''), String(c.password ?? '')) });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    { url: `${base(c)}/a1/sms`, headers: auth(c), form: { from: sms.from ?? '', to: sms.to, message: sms.content } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

/** Reads the account (`/a1/me`): nothing is sent. */
export async function checkFortySixElksConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/a1/me`, headers: auth(integration.credentials) });
}

export const fortySixElksProvider: DeliveryProvider = { send };
