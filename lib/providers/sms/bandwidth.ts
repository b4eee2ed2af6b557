import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Bandwidth Messaging API v2: Basic auth with the API user, the account id in the path. Bandwidth
// requires the messaging application's id: `applicationId` when given, else the account id as
// the reference sends.

const NAME = 'Bandwidth';
const messages = (c: Record<string, unknown>) =>
  `${baseUrlOf('bandwidth', c, 'https://messaging.bandwidth.com')}/api/v2/users/${encodeURIComponent(String(c.accountSid ?? ''))}/messages`;
const auth = (c: Record<string, unknown>) => ({ authorization: basicAuth(String(c.user ?? ''), String(c.password ?? '')) });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const applicationId = String(c.applicationId ?? '').trim() || String(c.accountSid ?? '');
  const request = withProviderData(
    { url: messages(c), headers: auth(c), json: { applicationId, to: [sms.to], from: sms.from ?? '', text: sms.content } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

/** Lists the account's messages: nothing is sent. */
export async function checkBandwidthConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { url: messages(integration.credentials), query: { limit: '1' }, headers: auth(integration.credentials) });
}

export const bandwidthProvider: DeliveryProvider = { send };
