import { CHANNELS_WITH_PRIMARY, type Channel } from '../integrations/catalogue.ts';
import { getChannelOrder, getIntegration, listIntegrationsOfChannel, type StoredIntegration } from '../integrations/repository.ts';
import { loadStepFilters, stepFiltersPass, type ConditionVariables } from '../workflows/step-conditions.ts';
import type { EnvScope } from '../scope.ts';

// Which integration delivers a channel step (the reference's order; docs/architecture.md, "Selection"):
// 1. `overrides.<channel>.integrationIdentifier`: the active integration with that identifier
//    (in this environment: the reference looks org-wide, but nothing here reaches across
//    environments);
// 2. with a tenant, the newest active integration that has conditions and whose conditions pass
//    (evaluated against the tenant, the payload and the subscriber, as step conditions are);
// 3. the primary (email, sms; no fallback to another, as in the reference, unless the environment
//    turned failover on: failoverOrder below) or the newest active.

const newestFirst = (a: StoredIntegration, b: StoredIntegration) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id);

export interface SelectOptions {
  identifier?: string;
  tenant?: Record<string, unknown>;
  variables?: ConditionVariables;
}

export async function selectIntegration(scope: EnvScope, channel: Channel, options: SelectOptions): Promise<StoredIntegration | undefined> {
  const all = (await listIntegrationsOfChannel(scope, channel)).filter((i) => i.active).sort(newestFirst);
  if (options.identifier) return all.find((i) => i.identifier === options.identifier);
  if (options.tenant) {
    await Promise.all(all.map((i) => loadStepFilters(i.conditions)));
    const conditional = all.find((i) => hasConditions(i) && passes(i, conditionVariables(options)));
    if (conditional) return conditional;
  }
  if (CHANNELS_WITH_PRIMARY.includes(channel)) {
    const { primaryId } = await getChannelOrder(scope, channel);
    const primary = primaryId ? await getIntegration(scope.organizationId, primaryId) : undefined;
    return primary?.active ? primary : undefined;
  }
  return all[0];
}

/**
 * Failover (ours, opt-in: docs/architecture.md, "Failover"): the integrations of an email or sms
 * channel to try after `chosen`, in the channel's order (highest priority first, the primary
 * leading). One with conditions is a candidate only when they pass for the trigger's tenant.
 */
export async function failoverOrder(
  scope: EnvScope,
  channel: Channel,
  chosen: StoredIntegration,
  options: SelectOptions,
): Promise<StoredIntegration[]> {
  const [{ activeIds }, all] = await Promise.all([getChannelOrder(scope, channel), listIntegrationsOfChannel(scope, channel)]);
  const byId = new Map(all.map((i) => [i._id, i]));
  if (options.tenant) await Promise.all(all.map((i) => loadStepFilters(i.conditions)));
  return activeIds
    .map((id) => byId.get(id))
    .filter((i): i is StoredIntegration => !!i && i.active && i._id !== chosen._id)
    .filter((i) => !hasConditions(i) || (!!options.tenant && passes(i, conditionVariables(options))));
}

const hasConditions = (integration: StoredIntegration) => (integration.conditions?.length ?? 0) > 0;

const conditionVariables = (options: SelectOptions): ConditionVariables => ({
  subscriber: {},
  payload: {},
  ...options.variables,
  tenant: options.tenant ?? {},
});

/** A condition that cannot be evaluated (a broken template in its value) does not pass. */
function passes(integration: StoredIntegration, variables: ConditionVariables): boolean {
  try {
    return stepFiltersPass(integration.conditions, variables);
  } catch {
    return false;
  }
}
