import type { Caller } from '../auth/caller.ts';
import { NotFoundError } from '../errors.ts';
import { NO_MOVE, planMove } from './channel-order.ts';
import { listIntegrations } from './list.ts';
import { getIntegration, writeIntegration } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { Integration } from './schemas.ts';
import { toIntegration } from './view.ts';

/**
 * Soft-deletes an integration: it stays stored with `deleted`, `deletedAt` and `deletedBy`, leaves
 * its channel's order and frees its identifier. Returns the organization's remaining integrations,
 * as the reference does.
 */
export async function removeIntegration(caller: Caller, integrationId: string): Promise<Integration[]> {
  await retryOnStaleWrite(async () => {
    const current = await getIntegration(caller.organizationId, integrationId);
    if (!current) throw new NotFoundError(`Entity with id ${integrationId} not found`);
    const scope = { organizationId: current._organizationId, environmentId: current._environmentId };
    const plan = current.active ? await planMove(scope, current.channel, { kind: 'deactivate', id: current._id }) : NO_MOVE;
    const now = new Date().toISOString();
    await writeIntegration({
      save: {
        ...toIntegration(current),
        active: false,
        primary: false,
        priority: 0,
        deleted: true,
        deletedAt: now,
        deletedBy: caller.userId,
        updatedAt: now,
      },
      expectedVersion: current.version,
      reorder: plan.reorder,
      channelOrders: plan.channelOrders,
      releaseIdentifier: current.identifier,
    });
  });
  return listIntegrations(caller);
}
