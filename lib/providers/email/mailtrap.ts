import { baseUrlOf } from '../base-url.ts';
import { stringValues } from '../deep-merge.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { addressObjectFields, emailMessage } from './message.ts';

// Mailtrap Email Sending API (transactional stream, Bearer token). customData becomes Mailtrap's
// custom_variables (echoed in its webhooks); the answer lists one message id per recipient, the
// first is kept. No connection check: sending tokens are scoped to the send hosts, and nothing
// there reads without sending.

const NAME = 'Mailtrap';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const mail = emailMessage(delivery);
  const variables = stringValues(mail.customData);
  const request = withProviderData(
    {
      url: `${baseUrlOf('mailtrap', c, 'https://send.api.mailtrap.io')}/api/send`,
      headers: { authorization: `Bearer ${String(c.apiKey ?? '')}` },
      json: {
        ...addressObjectFields(mail),
        ...(Object.keys(mail.headers).length > 0 && { headers: mail.headers }),
        ...(Object.keys(variables).length > 0 && { custom_variables: variables }),
      },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'message_ids.0'), answer.body);
}

export const mailtrapProvider: DeliveryProvider = { send };
