import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused } from '../result.ts';
import { smsMessage } from './message.ts';

// Gupshup Enterprise SMS GatewayAPI (form POST, user id and password in the body). It answers 200
// in text, `success | <phone> | <message id>` or `error | <code> | <reason>`. India's DLT
// registration ids come from customData, as in the reference. Gupshup has no call that sends
// nothing, so `check: true` cannot test the credentials.

const NAME = 'Gupshup';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const { principalEntityId, dltTemplateId } = sms.customData;
  const request = withProviderData(
    {
      url: `${baseUrlOf('gupshup', c, 'https://enterprise.smsgupshup.com')}/GatewayAPI/rest`,
      form: {
        method: 'SendMessage',
        send_to: sms.to,
        msg: sms.content,
        msg_type: 'TEXT',
        userid: String(c.user ?? ''),
        password: String(c.password ?? ''),
        auth_scheme: 'plain',
        v: '1.1',
        format: 'text',
        ...(typeof principalEntityId === 'string' && { principalEntityId }),
        ...(typeof dltTemplateId === 'string' && { dltTemplateId }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  const [status, second, third] = String(answer.body)
    .split('|')
    .map((part) => part.trim());
  if (status !== 'success') throw refused(NAME, [second, third].filter(Boolean).join(' '), answer);
  return delivered(NAME, third, answer.body);
}

export const gupshupProvider: DeliveryProvider = { send };
