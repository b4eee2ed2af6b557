import { baseUrlOf } from '../base-url.ts';
import type { ValueCheck } from '../credential-schema.ts';
import { callProvider, checkCall, withProviderData } from '../http.ts';
import type { ConnectionTarget, Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Sinch SMS REST API (xms v1): a batch of one, Bearer API token, at the region's host
// (us, eu, au, br, ca). The service plan id, which Credentials has no key for, is kept in
// accountSid (see the catalogue).

const NAME = 'Sinch';
const REGIONS = ['us', 'eu', 'au', 'br', 'ca'];

/** The region names a Sinch SMS host. */
export const sinchRegionCheck: ValueCheck = (value) =>
  typeof value === 'string' && REGIONS.includes(value.trim().toLowerCase()) ? undefined : `region must be one of ${REGIONS.join(', ')}`;

const plan = (c: Record<string, unknown>) => {
  const region =
    String(c.region ?? '')
      .trim()
      .toLowerCase() || 'us';
  return `${baseUrlOf('sinch', c, `https://${region}.sms.api.sinch.com`)}/xms/v1/${encodeURIComponent(String(c.accountSid ?? ''))}`;
};
const auth = (c: Record<string, unknown>) => ({ authorization: `Bearer ${String(c.apiToken ?? '')}` });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const request = withProviderData(
    { url: `${plan(c)}/batches`, headers: auth(c), json: { from: sms.from ?? '', to: [sms.to], body: sms.content } },
    delivery.providerData,
  );
  const answer = await callProvider(NAME, request);
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

/** Lists the service plan's batches (one page of one): nothing is sent. */
export async function checkSinchConnection(integration: ConnectionTarget): Promise<void> {
  const c = integration.credentials;
  await checkCall(NAME, { url: `${plan(c)}/batches`, query: { page_size: '1' }, headers: auth(c) });
}

export const sinchProvider: DeliveryProvider = { send };
