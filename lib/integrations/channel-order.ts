import type { EnvScope } from '../store/keys.ts';
import { rank, type RankMove } from './ranking.ts';
import { listIntegrationsOfChannel, type IntegrationWrite } from './repository.ts';
import { CHANNELS_WITH_PRIMARY, type Channel } from './providers.ts';

// Reads the active integrations of a channel and works out what a move changes: the moved
// integration's own priority/primary, and the writes for the others it reorders.

export interface OrderPlan {
  self?: { priority: number; primary: boolean };
  reorder: NonNullable<IntegrationWrite['reorder']>;
}

export async function planMove(scope: EnvScope, channel: Channel, move: RankMove): Promise<OrderPlan> {
  if (!CHANNELS_WITH_PRIMARY.includes(channel)) return { reorder: [] };
  const siblings = await listIntegrationsOfChannel(scope, channel);
  const changes = rank(
    siblings.filter((s) => s.active),
    move,
  );
  const versions = new Map(siblings.map((s) => [s._id, s.version]));
  const reorder: OrderPlan['reorder'] = [];
  for (const [id, values] of changes) {
    if (id !== move.id) reorder.push({ _id: id, ...values, expectedVersion: versions.get(id) ?? 0 });
  }
  const self = changes.get(move.id);
  return self ? { self, reorder } : { reorder };
}
