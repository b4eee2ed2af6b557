import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Brevo transactional SMS (API v3, `api-key` header).

const NAME = 'Brevo';
const base = (c: Record<string, unknown>) => `${baseUrlOf('brevo-sms', c, 'https://api.brevo.com')}/v3`;
const auth = (c: Record<string, unknown>) => ({ 'api-key': String(c.apiKey ?? '') });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    { url: `${base(c)}/transactionalSMS/sms`, headers: auth(c), json: { sender: sms.from ?? '', recipient: sms.to, content: sms.content } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'messageId'), answer.body);
}

/** Reads the account: nothing is sent. */
export async function checkBrevoSmsConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/account`, headers: auth(integration.credentials) });
}

export const brevoSmsProvider: DeliveryProvider = { send };
