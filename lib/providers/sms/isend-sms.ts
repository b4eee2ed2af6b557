import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, refused, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// iSend SMS (send.com.ly) API v3, Bearer token. The recipient goes without a leading + or 00;
// without a sender id (optional in the catalogue) the account's default is used.
// It may answer 200 with `status: "error"` and its reason in `message`.

const NAME = 'iSend SMS';
const base = (c: Record<string, unknown>) => baseUrlOf('isend-sms', c, 'https://send.com.ly');
const auth = (c: Record<string, unknown>) => ({ authorization: `Bearer ${String(c.apiToken ?? '')}` });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${base(c)}/api/v3/sms/send`,
      headers: auth(c),
      json: { recipient: sms.to.replace(/^(\+|00)/, ''), ...(sms.from && { sender_id: sms.from }), type: 'unicode', message: sms.content },
    },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  if (valueAt(answer.body, 'status') !== 'success') throw refused(NAME, valueAt(answer.body, 'message'), answer);
  return delivered(NAME, valueAt(answer.body, 'data.uid'), answer.body);
}

/** Reads the account balance: nothing is sent. */
export async function checkIsendSmsConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/api/v3/balance`, headers: auth(integration.credentials) });
}

export const isendSmsProvider: DeliveryProvider = { send };
