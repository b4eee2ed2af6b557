import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// iMedia (mobilebranding.vn) brand-name SMS API: JSON POST with the token in a `token` header,
// text sent as unicode. It answers 200 with `errorCode` "000" and the `referentId` when it takes
// the message, another code and its `errorMessage` when not. No call checks the token without
// sending.

const NAME = 'iMedia';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${baseUrlOf('imedia', c, 'https://api.mobilebranding.vn')}/api/SMSBrandname/SendSMS`,
      headers: { token: String(c.token ?? '') },
      json: { to: sms.to, from: sms.from ?? '', message: sms.content, useUnicode: 1, type: 1 },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const code = valueAt(answer.body, 'errorCode');
  if (code !== '000') throw refused(NAME, `${String(code)} ${String(valueAt(answer.body, 'errorMessage') ?? '')}`, answer);
  return delivered(NAME, valueAt(answer.body, 'referentId'), answer.body);
}

export const imediaProvider: DeliveryProvider = { send };
