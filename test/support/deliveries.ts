import type { Channel } from '#lib/integrations/catalogue.ts';
import type { StoredIntegration } from '#lib/integrations/repository.ts';
import type { Delivery } from '#lib/providers/provider.ts';

// A delivery as the pipeline hands it to a provider, for tests that call providers directly.

export function integrationOf(providerId: string, channel: Channel, credentials: Record<string, unknown>): StoredIntegration {
  const now = new Date().toISOString();
  return {
    _id: 'int-1',
    _environmentId: 'env-1',
    _organizationId: 'org-1',
    name: providerId,
    identifier: `${providerId}-1`,
    providerId,
    channel,
    credentials,
    active: true,
    deleted: false,
    primary: true,
    priority: 1,
    conditions: [],
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

export function deliveryOf(
  providerId: string,
  channel: Channel,
  credentials: Record<string, unknown>,
  fields: Partial<Omit<Delivery, 'integration' | 'channel'>> = {},
): Delivery {
  return {
    channel,
    to: fields.to ?? 'ada@example.test',
    content: fields.content ?? 'Hello',
    ...fields,
    integration: integrationOf(providerId, channel, credentials),
  };
}

/** The phone number SMS provider tests send to. */
export const PHONE = '+15550100';

/** An SMS delivery to PHONE from the integration's `from` (+15550199), for the SMS provider tests. */
export function smsDelivery(providerId: string, credentials: Record<string, unknown>, fields: Partial<Delivery> = {}): Delivery {
  return deliveryOf(providerId, 'sms', { from: '+15550199', ...credentials }, { to: PHONE, content: 'Your code is 123', ...fields });
}

/** An HTTP Basic authorization header value, as a test expects a provider to send it. */
export const basicAuthOf = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
