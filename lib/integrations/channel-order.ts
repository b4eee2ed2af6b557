import type { EnvScope } from '../store/keys.ts';
import { rank, type RankMove } from './ranking.ts';
import { listIntegrationsOfChannel, type IntegrationWrite } from './repository.ts';
import { CHANNELS_WITH_PRIMARY, type Channel } from './providers.ts';

// Reads the integrations of a channel and works out what a move changes: the moved
// integration's own priority/primary, and the writes for the others it reorders. The plan also
// names the siblings it read but leaves alone, at their read version: the write checks them too,
// so two moves planned from the same reads (e.g. two activations in a channel without a primary,
// which reorder nobody) cannot both succeed.

export interface OrderPlan {
  self?: { priority: number; primary: boolean };
  reorder: NonNullable<IntegrationWrite['reorder']>;
  unchanged?: NonNullable<IntegrationWrite['unchanged']>;
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
  const unchanged = siblings
    .filter((s) => s._id !== move.id && !changes.has(s._id))
    .map((s) => ({ _id: s._id, expectedVersion: s.version }));
  const self = changes.get(move.id);
  return self ? { self, reorder, unchanged } : { reorder, unchanged };
}
