import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData, type ProviderAnswer } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused } from '../result.ts';
import { smsMessage } from './message.ts';

// Firetext API (form POST, the API key in the body). It answers 200 in text, `<code>:<count>
// <description>`, code 0 meaning sent; the message id comes in the X-Message header. Its documented
// calls all send or need an account login, so `check: true` cannot test the key.

const NAME = 'Firetext';
const ANSWER = /^(\d+):\S*\s*(.*)$/s;

/** The answer's code and description; a code other than 0 is Firetext's refusal. */
function accepted(answer: ProviderAnswer): void {
  const [, code, description] = ANSWER.exec(String(answer.body).trim()) ?? [];
  if (code !== '0') throw refused(NAME, code === undefined ? String(answer.body) : `${code}: ${description}`, answer);
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('firetext', c, 'https://www.firetext.co.uk')}/api/sendsms`,
      form: { apiKey: String(c.apiKey ?? ''), from: sms.from ?? '', to: sms.to, message: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  accepted(answer);
  const id = answer.headers.get('x-message');
  return delivered(NAME, id, { status: answer.status, body: answer.body, messageId: id });
}

export const firetextProvider: DeliveryProvider = { send };
