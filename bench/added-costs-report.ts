import type { AddedCostsResult } from './added-costs.ts';
import type { VariantResult } from './added-costs-variant.ts';
import { cpuMsPerDeliveryBySide } from './cpu.ts';
import { n, table, type Check } from './table.ts';

// The added-costs section's targets (issue 35, items 3 and 6) and its tables.

export const ADDED_COST_TARGETS = {
  endToEndFloorRatio: 0.7,
  writesPerDelivery: 3,
  /** Deliveries/s with sockets open ÷ without, at least. */
  socketsRatio: 0.9,
  costPerMillionUsd: 5,
};

const named = (r: AddedCostsResult, prefix: string): VariantResult => {
  const found = r.variants.find((v) => v.name.startsWith(prefix));
  if (!found) throw new Error(`added costs: no variant "${prefix}"`);
  return found;
};

export function addedCostChecks(r: AddedCostsResult): Check[] {
  const on = named(r, 'everything on');
  const noSockets = named(r, 'no open sockets');
  const writes = on.perDelivery.writeRequests;
  const floorDeliveries = on.floorPutsPerSec / writes;
  const cost = on.cost.totalUsd;
  const t = ADDED_COST_TARGETS;
  return [
    {
      target: 'everything on: end to end ÷ (floor ÷ writes per delivery)',
      value: on.deliveredPerSec / floorDeliveries,
      limit: `≥ ${t.endToEndFloorRatio}`,
      ok: on.deliveredPerSec / floorDeliveries >= t.endToEndFloorRatio,
    },
    {
      target: 'everything on: write requests per delivery (live and webhook work included)',
      value: writes,
      limit: `≤ ${t.writesPerDelivery}`,
      ok: writes <= t.writesPerDelivery,
    },
    {
      target: 'deliveries/s with sockets open ÷ without',
      value: on.deliveredPerSec / noSockets.deliveredPerSec,
      limit: `≥ ${t.socketsRatio}`,
      ok: on.deliveredPerSec / noSockets.deliveredPerSec >= t.socketsRatio,
    },
    {
      target: 'cost per million one-recipient in-app deliveries, everything on (USD)',
      value: cost,
      limit: `≤ ${t.costPerMillionUsd}`,
      ok: cost <= t.costPerMillionUsd,
    },
  ];
}

const ops = (byOperation: Record<string, number>) =>
  Object.entries(byOperation)
    .filter(([, v]) => v >= 0.005)
    .map(([k, v]) => `${k.replace('Command', '')} ${n(v, 2)}`)
    .join(', ');

/** CPU ms per delivery, both sides together and each: "total (this process + DynamoDB Local)". */
const cpuSplit = (cpu: { node: number; dynamoDbLocal: number } | undefined) =>
  cpu ? `${n(cpu.node + cpu.dynamoDbLocal, 1)} (${n(cpu.node, 1)} + ${n(cpu.dynamoDbLocal, 1)})` : 'n/a';

export function printAddedCosts(r: AddedCostsResult): void {
  const on = named(r, 'everything on');
  const sqsRequests = (v: VariantResult) =>
    v.sqsPerDelivery.sendRequests + v.sqsPerDelivery.receiveRequests + v.sqsPerDelivery.deleteRequests;
  table(
    `3f. Where a one-recipient in-app delivery's time goes (${r.events} events per variant, bulk requests of ${r.eventsPerRequest}; ` +
      'metrics and traces switched per process)',
    [
      'variant',
      'deliveries / s',
      '÷ everything on',
      'CPU ms / delivery (this process + DynamoDB Local)',
      'DynamoDB requests (writes) / delivery',
      'SQS requests / delivery',
      'webhook POSTs, frames / delivery',
      'floor PutItem / s',
    ],
    r.variants.map((v) => [
      v.name,
      v.deliveredPerSec,
      v.deliveredPerSec / on.deliveredPerSec,
      cpuSplit(cpuMsPerDeliveryBySide(v.coresUsed, v.deliveredPerSec)),
      `${n(v.perDelivery.requests, 2)} (${n(v.perDelivery.writeRequests, 2)})`,
      n(sqsRequests(v), 2),
      `${n(v.webhookPostsPerDelivery, 2)}, ${n(v.framesPerDelivery, 2)}`,
      n(v.floorPutsPerSec, 0),
    ]),
  );
  table(
    `3f. Per delivery by operation, and capacity units (counted on ${on.countedEvents} events of their own, capacity asked for)`,
    ['variant', 'DynamoDB by operation', 'WRU (billed)', 'RRU', 'cost / M (USD), of it Lambda duration'],
    r.variants.map((v) => [
      v.name,
      ops(v.perDelivery.byOperation),
      `${n(v.countedPerDelivery.writeUnits, 2)} (${n(v.countedPerDelivery.billedWriteUnits, 2)})`,
      n(v.countedPerDelivery.readUnits, 2),
      `${n(v.cost.totalUsd, 2)}, ${n(v.cost.rows.find((c) => c.item === 'Lambda duration')?.usd ?? 0, 2)}`,
    ]),
  );
  const replay = on.replay;
  if (replay) {
    const floorDeliveries = replay.floorPutsPerSec / on.perDelivery.writeRequests;
    table(
      "3f. What cannot be switched off: a delivery's items replayed (writes alone, 32 in flight; median of 3 rounds)",
      ['measure', 'value'],
      [
        ['deliveries / s: items as stored', n(replay.deliveriesPerSec.asStored, 0)],
        ['  their CPU ms per delivery (this process + DynamoDB Local)', cpuSplit(replay.asStoredCpuMs)],
        ['  without the TTL attribute', n(replay.deliveriesPerSec.withoutTtl, 0)],
        ['  with every key on shard 0 (before sharding)', n(replay.deliveriesPerSec.unsharded, 0)],
        ['  with the index keys renamed (same bytes, no index entries)', n(replay.deliveriesPerSec.withoutIndexEntries, 0)],
        ['  with every key kept and the rest in one string (same bytes, flat)', n(replay.deliveriesPerSec.flat, 0)],
        [
          'as stored / without index entries / flat, ÷ the floor deliveries ' +
            `(the rounds' floor, ${n(replay.floorPutsPerSec, 0)} PutItem/s, ÷ the pipeline's write requests per delivery)`,
          [replay.deliveriesPerSec.asStored, replay.deliveriesPerSec.withoutIndexEntries, replay.deliveriesPerSec.flat]
            .map((d) => n(d / floorDeliveries, 2))
            .join(' / '),
        ],
        ['bytes of event + notification + message, with / without ttl', `${replay.itemBytes.asStored} / ${replay.itemBytes.withoutTtl}`],
        ['one shardOf call, µs', n(replay.shardOfMicros, 3)],
        [`API rate-limit check alone, p50 ms (one per request of ${r.eventsPerRequest} events)`, n(on.rateLimitCheckMs, 2)],
      ],
    );
  }
  {
    table(
      `Cost per million one-recipient in-app deliveries, everything on (bulk requests of ${r.eventsPerRequest})`,
      ['item', 'for 1 M events', 'USD'],
      [...on.cost.rows.map((c) => [c.item, c.perMillionEvents, `$${c.usd.toFixed(2)}`]), ['total', '', `$${on.cost.totalUsd.toFixed(2)}`]],
    );
  }
  table(
    'Targets (added costs)',
    ['target', 'measured', 'target', ''],
    addedCostChecks(r).map((c) => [c.target, c.value, c.limit, c.ok ? 'ok' : 'MISSED']),
  );
}
