import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Vonage (formerly Nexmo, provider id `nexmo`) SMS API. It answers 200 even when it refuses: each
// message carries a status, "0" meaning accepted. Numbers go without the leading +; text outside
// ASCII is sent as unicode so it is not mangled.

const NAME = 'Vonage';
const bare = (number: string) => number.replace(/^\+/, '');

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('nexmo', c, 'https://rest.nexmo.com')}/sms/json`,
      form: {
        api_key: String(c.apiKey ?? ''),
        api_secret: String(c.secretKey ?? ''),
        from: bare(sms.from ?? ''),
        to: bare(sms.to),
        text: sms.content,
        // eslint-disable-next-line no-control-regex
        ...(/[^\x00-\x7f]/.test(sms.content) && { type: 'unicode' }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const status = valueAt(answer.body, 'messages.0.status');
  if (status !== '0') {
    const reason = valueAt(answer.body, 'messages.0.error-text');
    throw new ProviderError(`${NAME} refused the message: ${typeof reason === 'string' ? reason : `status ${String(status)}`}`, {
      status: answer.status,
      body: answer.body,
    });
  }
  return delivered(NAME, valueAt(answer.body, 'messages.0.message-id'), answer.body);
}

export const vonageProvider: DeliveryProvider = { send };
