import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Burst SMS (Transmit SMS API): form POST, Basic auth with the API key and secret. Errors answer
// 4xx with `error: { code, description }`.

const NAME = 'BurstSMS';
const base = (c: Record<string, unknown>) => baseUrlOf('burst-sms', c, 'https://api.transmitsms.com');
const auth = (c: Record<string, unknown>) => ({ authorization: basicAuth(String(c.apiKey ?? ''), String(c.secretKey ?? '')) });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    { url: `${base(c)}/send-sms.json`, headers: auth(c), form: { message: sms.content, to: sms.to, ...(sms.from && { from: sms.from }) } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'message_id'), answer.body);
}

/** Reads the account balance: nothing is sent. */
export async function checkBurstSmsConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/get-balance.json`, headers: auth(integration.credentials) });
}

export const burstSmsProvider: DeliveryProvider = { send };
