import type { EnvScope } from '../scope.ts';
import { CHANNELS_WITH_PRIMARY, type Channel } from './catalogue.ts';
import { rank, type RankMove } from './ranking.ts';
import { getChannelOrder, type IntegrationWrite } from './repository.ts';

// Works out what a move changes in an email/sms channel: the moved integration's own priority
// and primary, the other integrations whose values change, and the channel's new order, which
// is written only if nobody changed the channel since it was read.

export interface OrderPlan {
  self?: { priority: number; primary: boolean };
  reorder: NonNullable<IntegrationWrite['reorder']>;
  channelOrders: NonNullable<IntegrationWrite['channelOrders']>;
}

/** The plan of a change that moves nothing (inactive integrations, channels without primary). */
export const NO_MOVE: OrderPlan = { reorder: [], channelOrders: [] };

export async function planMove(scope: EnvScope, channel: Channel, move: RankMove): Promise<OrderPlan> {
  if (!CHANNELS_WITH_PRIMARY.includes(channel)) return NO_MOVE;
  const current = await getChannelOrder(scope, channel);
  const actives = current.activeIds.map((id, index) => ({
    _id: id,
    priority: current.activeIds.length - index,
    primary: id === current.primaryId,
  }));
  const { order, changes } = rank(actives, move);

  const reorder: OrderPlan['reorder'] = [];
  for (const [id, values] of changes) if (id !== move.id) reorder.push({ _id: id, ...values });
  const self = changes.get(move.id);
  const channelOrders = [
    {
      scope,
      channel,
      activeIds: order.map((a) => a._id),
      primaryId: order.find((a) => a.primary)?._id ?? null,
      version: current.version,
    },
  ];
  return self ? { self, reorder, channelOrders } : { reorder, channelOrders };
}

/** Several moves of one change (e.g. leaving one environment's channel and joining another's). */
export function combinePlans(plans: readonly OrderPlan[]): OrderPlan {
  // The last plan that sets the moved integration's values decides them.
  const self = plans.reduce<OrderPlan['self']>((acc, p) => p.self ?? acc, undefined);
  const combined = { reorder: plans.flatMap((p) => p.reorder), channelOrders: plans.flatMap((p) => p.channelOrders) };
  return self ? { self, ...combined } : combined;
}
