import { CHANNELS_WITH_PRIMARY, type Channel } from '../integrations/providers.ts';
import { getChannelOrder, getIntegration, listIntegrationsOfChannel, type StoredIntegration } from '../integrations/repository.ts';
import { stepFiltersPass } from '../pipeline/step-conditions.ts';
import type { EnvScope } from '../store/keys.ts';

// Which integration delivers a channel step (reference 12.9): the one named by
// `overrides.<channel>.integrationIdentifier`; else, with a tenant, the first active integration
// whose conditions pass for that tenant; else the primary (email, sms) or the newest active one.

export async function selectIntegration(
  scope: EnvScope,
  channel: Channel,
  options: { identifier?: string; tenant?: Record<string, unknown> },
): Promise<StoredIntegration | undefined> {
  const all = (await listIntegrationsOfChannel(scope, channel)).filter((i) => i.active);
  if (options.identifier) return all.find((i) => i.identifier === options.identifier);
  if (options.tenant) {
    const conditional = all.find((i) => i.conditions?.length && stepFiltersPass(i.conditions, { subscriber: {}, payload: {}, tenant: options.tenant }));
    if (conditional) return conditional;
  }
  if (CHANNELS_WITH_PRIMARY.includes(channel)) {
    const { primaryId } = await getChannelOrder(scope, channel);
    return primaryId ? getIntegration(scope.organizationId, primaryId) : undefined;
  }
  return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id))[0];
}
