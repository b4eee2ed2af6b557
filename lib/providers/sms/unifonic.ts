import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Unifonic REST SMS API: form-encoded with the application's AppSid; the sender is the trigger's
// or step's, else the integration's Sender ID, else its `from`. The recipient goes in
// international format without `+`, as Unifonic documents. It may refuse with a 200 whose
// `success` is false: that fails with its message and error code.

const NAME = 'Unifonic';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery, c.senderId);
  const request = withProviderData(
    {
      url: `${baseUrlOf('unifonic', c, 'https://el.cloud.unifonic.com')}/rest/SMS/messages`,
      form: {
        AppSid: String(c.appSid ?? ''),
        SenderID: sms.from ?? '',
        Recipient: sms.to.replace(/^\+/, ''),
        Body: sms.content,
        responseType: 'JSON',
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const success = valueAt(answer.body, 'success');
  if (success === false || success === 'false') {
    const message = valueAt(answer.body, 'message');
    const code = valueAt(answer.body, 'errorCode');
    throw refused(NAME, `${typeof message === 'string' && message ? message : 'not sent'}${code ? ` (${String(code)})` : ''}`, answer);
  }
  return delivered(NAME, valueAt(answer.body, 'data.MessageID') ?? valueAt(answer.body, 'messageID'), answer.body);
}

export const unifonicProvider: DeliveryProvider = { send };
