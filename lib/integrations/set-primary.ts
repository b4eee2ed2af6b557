import type { Caller } from '../auth/caller.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { planMove } from './channel-order.ts';
import { assertCredentialsComplete } from './credentials.ts';
import { CHANNELS_WITH_PRIMARY, findProvider } from './catalogue.ts';
import { getIntegration, writeIntegration } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { Integration } from './schemas.ts';
import { toIntegration } from './view.ts';

/** Makes an email or sms integration active and the primary of its environment and channel. */
export async function setPrimaryIntegration(caller: Caller, integrationId: string): Promise<Integration> {
  return retryOnStaleWrite(async () => {
    const current = await getIntegration(caller.organizationId, integrationId);
    if (!current) throw new NotFoundError(`Entity with id ${integrationId} not found`);
    if (!CHANNELS_WITH_PRIMARY.includes(current.channel)) {
      throw new BadRequestError(`The ${current.channel} channel does not have a primary integration`);
    }
    const provider = findProvider(current.providerId);
    if (provider && !current.active) assertCredentialsComplete(provider, current.credentials);

    const scope = { organizationId: current._organizationId, environmentId: current._environmentId };
    const plan = await planMove(scope, current.channel, { kind: 'setPrimary', id: current._id });
    const saved = await writeIntegration({
      save: { ...toIntegration(current), active: true, ...plan.self, updatedAt: new Date().toISOString() },
      expectedVersion: current.version,
      reorder: plan.reorder,
      channelOrders: plan.channelOrders,
    });
    return toIntegration(saved);
  });
}
