import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Termii messaging API: the API key goes in the body (query for the balance), a plain message
// on the generic route.

const NAME = 'Termii';
const base = (c: Record<string, unknown>) => `${baseUrlOf('termii', c, 'https://api.ng.termii.com')}/api`;

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${base(c)}/sms/send`,
      json: { to: sms.to, from: sms.from ?? '', sms: sms.content, type: 'plain', channel: 'generic', api_key: String(c.apiKey ?? '') },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'message_id'), answer.body);
}

/** Reads the account balance: nothing is sent. */
export async function checkTermiiConnection(integration: ConnectionTarget): Promise<void> {
  const c = integration.credentials;
  await checkCall(NAME, { url: `${base(c)}/get-balance`, query: { api_key: String(c.apiKey ?? '') } });
}

export const termiiProvider: DeliveryProvider = { send };
