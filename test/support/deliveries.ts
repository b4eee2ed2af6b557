import type { Channel } from '#lib/integrations/providers.ts';
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
  return { channel, to: fields.to ?? 'ada@example.test', content: fields.content ?? 'Hello', ...fields, integration: integrationOf(providerId, channel, credentials) };
}
