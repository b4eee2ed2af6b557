import { baseUrlOf } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Mobishastra JSON API at the account's own URL (`baseUrl`): a list of one message carrying the
// user and password. It answers 200 with a list whose `msg_id` is the message id, or with only
// `str_response` saying why it refused. No call checks the account without sending.

const NAME = 'Mobishastra';

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const message = { user: String(c.user ?? ''), pwd: String(c.password ?? ''), number: sms.to, msg: sms.content, Sender: sms.from ?? '' };
  // Provider data goes into the message, the one object of the list.
  const request = withProviderData({ url: baseUrlOf('mobishastra', c, ''), json: message }, delivery.providerData);
  const answer = await callProvider(NAME, { ...request, json: [request.json] });
  const first = valueAt(answer.body, '0');
  const id = valueAt(first, 'msg_id');
  if (typeof id !== 'string' || id.trim() === '') throw refused(NAME, valueAt(first, 'str_response'), answer);
  return delivered(NAME, id.trim(), answer.body);
}

export const mobishastraProvider: DeliveryProvider = { send };
