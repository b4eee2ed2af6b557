import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Africa's Talking SMS API: form-encoded, the API key in the `apiKey` header, the app's username
// in the body; the username `sandbox` is their sandbox host. It answers 201 with a status per
// recipient: one that is not a success (codes 100-102) fails with its status text.

const NAME = "Africa's Talking";
const base = (c: Record<string, unknown>) =>
  baseUrlOf(
    'africas-talking',
    c,
    String(c.user ?? '') === 'sandbox' ? 'https://api.sandbox.africastalking.com' : 'https://api.africastalking.com',
  );
const auth = (c: Record<string, unknown>) => ({ apiKey: String(c.apiKey ?? '') });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${base(c)}/version1/messaging`,
      headers: auth(c),
      form: { username: String(c.user ?? ''), to: sms.to, message: sms.content, ...(sms.from && { from: sms.from }) },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const recipient = valueAt(answer.body, 'SMSMessageData.Recipients.0') as
    { statusCode?: number; status?: string; messageId?: string } | undefined;
  if (!recipient || ![100, 101, 102].includes(Number(recipient.statusCode))) {
    const reason = recipient?.status ?? valueAt(answer.body, 'SMSMessageData.Message') ?? 'no recipient accepted';
    throw new ProviderError(`${NAME} did not send the message: ${String(reason)}`, { status: answer.status, body: answer.body });
  }
  return delivered(NAME, recipient.messageId, answer.body);
}

/** Reads the app's data (its balance): nothing is sent. */
export async function checkAfricasTalkingConnection(integration: ConnectionTarget): Promise<void> {
  const c = integration.credentials;
  await checkCall(NAME, { url: `${base(c)}/version1/user`, query: { username: String(c.user ?? '') }, headers: auth(c) });
}

export const africasTalkingProvider: DeliveryProvider = { send };
