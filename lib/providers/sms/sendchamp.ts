import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Sendchamp SMS API (Bearer public key), on the international route as the reference sends. The
// message id kept is the answer's `business_id`, as in the reference.

const NAME = 'Sendchamp';
const base = (c: Record<string, unknown>) => `${baseUrlOf('sendchamp', c, 'https://api.sendchamp.com')}/api/v1`;
const auth = (c: Record<string, unknown>) => ({ authorization: `Bearer ${String(c.apiKey ?? '')}` });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${base(c)}/sms/send`,
      headers: auth(c),
      json: { sender_name: sms.from ?? '', to: sms.to, message: sms.content, route: 'international' },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'data.business_id'), answer.body);
}

/** Reads the wallet balance: nothing is sent. */
export async function checkSendchampConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/wallet/wallet_balance`, headers: auth(integration.credentials) });
}

export const sendchampProvider: DeliveryProvider = { send };
