import { baseUrlOf } from '../base-url.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// BulkSMS JSON REST API v1. The API token is BulkSMS's `tokenId:tokenSecret` pair, sent as Basic
// auth as the reference does. It answers 201 with a list of messages; errors are problem
// documents (`title`, `detail`).

const NAME = 'BulkSMS';
const base = (c: Record<string, unknown>) => baseUrlOf('bulk-sms', c, 'https://api.bulksms.com');
const auth = (c: Record<string, unknown>) => ({ authorization: `Basic ${Buffer.from(String(c.apiToken ?? '')).toString('base64')}` });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    { url: `${base(c)}/v1/messages`, headers: auth(c), json: { to: sms.to, body: sms.content, ...(sms.from && { from: sms.from }) } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, '0.id'), answer.body);
}

/** Reads the account profile: nothing is sent. */
export async function checkBulkSmsConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: `${base(integration.credentials)}/v1/profile`, headers: auth(integration.credentials) });
}

export const bulkSmsProvider: DeliveryProvider = { send };
