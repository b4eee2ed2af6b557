import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, checkCall, withProviderData } from '../http.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// ClickSend REST v3: Basic auth with the username and API key, a list of one message. Each
// message has its own status: one other than SUCCESS fails with it. The sender goes as `from`
// (the reference drops it; the catalogue requires it, so it is used).

const NAME = 'ClickSend';
const base = (c: Record<string, unknown>) => `${baseUrlOf('clicksend', c, 'https://rest.clicksend.com')}/v3`;
const auth = (c: Record<string, unknown>) => ({ authorization: basicAuth(String(c.user ?? ''), String(c.apiKey ?? '')) });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const message = { to: sms.to, body: sms.content, ...(sms.from && { from: sms.from }) };
  const request = withProviderData({ url: `${base(c)}/sms/send`, headers: auth(c), json: { messages: [message] } }, delivery.providerData);
  const answer = await callProvider(NAME, request);
  const status = valueAt(answer.body, 'data.messages.0.status');
  if (status !== undefined && status !== 'SUCCESS') {
    throw new ProviderError(`${NAME} did not send the message: ${String(status)}`, { status: answer.status, body: answer.body });
  }
  return delivered(NAME, valueAt(answer.body, 'data.messages.0.message_id'), answer.body);
}

/** Reads the account: nothing is sent. */
export async function checkClicksendConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/account`, headers: auth(integration.credentials) });
}

export const clicksendProvider: DeliveryProvider = { send };
