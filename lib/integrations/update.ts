import type { Caller } from '../auth/caller.ts';
import { sentFields } from '../sent-fields.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { combinePlans, planMove, type OrderPlan } from './channel-order.ts';
import { checkConnection } from './connection-check.ts';
import { assertCredentialsComplete } from './credentials.ts';
import { findProvider } from './catalogue.ts';
import { getIntegration, writeIntegration } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { Integration, UpdateIntegrationInput } from './schemas.ts';
import { resolveEnvironment } from './target-environment.ts';
import { toIntegration } from './view.ts';

const UPDATABLE = ['name', 'identifier', '_environmentId', 'active', 'credentials', 'conditions', 'configurations'] as const;

/**
 * Changes an integration of the caller's organization. `credentials`, `conditions` and
 * `configurations` replace what is stored; `active` and a move to another environment reorder
 * the channel's priorities; conditions on a primary integration take its primary role away.
 */
export async function updateIntegration(caller: Caller, integrationId: string, input: UpdateIntegrationInput): Promise<Integration> {
  if (!UPDATABLE.some((field) => input[field] !== undefined)) {
    throw new BadRequestError('No properties found for update');
  }

  return retryOnStaleWrite(async () => {
    const current = await getIntegration(caller.organizationId, integrationId);
    if (!current) throw new NotFoundError(`Entity with id ${integrationId} not found`);
    const provider = findProvider(current.providerId);

    const environmentId = await resolveEnvironment({ ...caller, environmentId: current._environmentId }, input._environmentId);
    const next: Integration = {
      ...toIntegration(current),
      ...sentFields(input, ['name', 'identifier', 'active', 'credentials', 'conditions', 'configurations']),
      _environmentId: environmentId,
      updatedAt: new Date().toISOString(),
    };

    if (provider && next.active && (input.active === true || input.credentials !== undefined)) {
      assertCredentialsComplete(provider, next.credentials);
    }
    if (input.check) await checkConnection(current.providerId, input.credentials ?? current.credentials);

    const plan = await reorderFor(current, next, (input.conditions?.length ?? 0) > 0);
    const identifierChanged = next.identifier !== current.identifier;
    const saved = await writeIntegration({
      save: { ...next, ...plan.self },
      expectedVersion: current.version,
      reorder: plan.reorder,
      channelOrders: plan.channelOrders,
      ...(identifierChanged && { claimIdentifier: next.identifier, releaseIdentifier: current.identifier }),
    });
    return toIntegration(saved);
  });
}

/** The channel moves the change amounts to: leaving one active list, joining another, or losing primary. */
async function reorderFor(current: Integration, next: Integration, gainsConditions: boolean): Promise<OrderPlan> {
  const org = current._organizationId;
  const id = current._id;
  const from = { organizationId: org, environmentId: current._environmentId };
  const to = { organizationId: org, environmentId: next._environmentId };
  const moved = from.environmentId !== to.environmentId;

  const plans: OrderPlan[] = [];
  if (current.active && (!next.active || moved)) {
    plans.push(await planMove(from, current.channel, { kind: 'deactivate', id }));
  }
  if (next.active && (!current.active || moved)) {
    plans.push(await planMove(to, current.channel, { kind: 'activate', id }));
  } else if (next.active && current.primary && gainsConditions) {
    plans.push(await planMove(to, current.channel, { kind: 'unsetPrimary', id }));
  }
  return combinePlans(plans);
}
