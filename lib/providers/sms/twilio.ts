import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Twilio Programmable Messaging (form-encoded, Basic auth with the account SID and auth token).
// A `from` starting with MG names a Messaging Service rather than a number.

const NAME = 'Twilio';
const base = (c: Record<string, unknown>) => baseUrlOf('twilio', c, 'https://api.twilio.com');
const account = (c: Record<string, unknown>) => `${base(c)}/2010-04-01/Accounts/${encodeURIComponent(String(c.accountSid ?? ''))}`;
const auth = (c: Record<string, unknown>) => ({ authorization: basicAuth(String(c.accountSid ?? ''), String(c.token ?? '')) });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const sender = sms.from?.startsWith('MG') ? { MessagingServiceSid: sms.from } : { From: sms.from ?? '' };
  const request = withProviderData(
    { url: `${account(c)}/Messages.json`, headers: auth(c), form: { To: sms.to, ...sender, Body: sms.content } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'sid'), answer.body);
}

/** Reads the account: nothing is sent. */
export async function checkTwilioConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${account(integration.credentials)}.json`, headers: auth(integration.credentials) });
}

export const twilioProvider: DeliveryProvider = { send };
