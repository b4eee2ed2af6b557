import { availableParallelism } from 'node:os';
import type { AddedCostsResult } from './added-costs.ts';
import type { VariantResult } from './added-costs-variant.ts';
import type { AloneRate } from './alone.ts';
import { cpuMsPerDeliveryBySide, type CpuBySide } from './cpu.ts';
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
const cpuSplit = (cpu: CpuBySide | undefined) =>
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
  printSideWork(r);
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

const total = (cpu: CpuBySide | undefined) => (cpu ? cpu.node + cpu.dynamoDbLocal : undefined);

/** Deliveries/s that `ms` of CPU per delivery allows on `cores`, ÷ the floor deliveries: a bound on the floor ratio. */
interface RatioBound {
  ms: number;
  busyCores: number;
  atBusyCores: number;
  cores: number;
  atAllCores: number;
}

/**
 * What the features' own calls cost a delivery on this machine, from the parts timed alone. The
 * least: its items (written), the three frames the inbox client expects, the signed POST of each
 * webhook event, and nothing else (no read, no queue, no code of ours). With the push's reads: also
 * where the subscriber's sockets are and the two counts the frames carry. With the webhook
 * deliveries: also each event's reads (its endpoint, and its attempt, which keeps a redelivered
 * message from sending again) and its attempt written (the attempts list). Each bounds the floor
 * ratio at the cores the run kept busy and, more generously, at all of the machine's; the push's
 * least, beside the pipeline without sockets, bounds the sockets ratio while the two share cores.
 */
function sideWorkBounds(r: AddedCostsResult) {
  const on = named(r, 'everything on');
  const noSockets = named(r, 'no open sockets');
  const items = total(on.replay?.asStoredCpuMs);
  const frames = total(on.pushAlone?.frames.cpuMs);
  const sockets = total(on.pushAlone?.sockets.cpuMs);
  const counts = total(on.pushAlone?.counts.cpuMs);
  const post = total(on.webhookAlone?.post.cpuMs);
  const delivery = total(on.webhookAlone?.delivery.cpuMs);
  const quiet = cpuMsPerDeliveryBySide(noSockets.coresUsed, noSockets.deliveredPerSec);
  if (items === undefined || frames === undefined || sockets === undefined || counts === undefined) return undefined;
  if (post === undefined || delivery === undefined || !quiet) return undefined;
  const pushReads = sockets + counts;
  const busyCores = on.coresUsed.node + (on.coresUsed.dynamoDbLocal ?? 0);
  const floorDeliveries = on.floorPutsPerSec / on.perDelivery.writeRequests;
  const bound = (ms: number): RatioBound => ({
    ms,
    busyCores,
    atBusyCores: (busyCores * 1000) / ms / floorDeliveries,
    cores: availableParallelism(),
    atAllCores: (availableParallelism() * 1000) / ms / floorDeliveries,
  });
  const least = items + frames + on.webhookPostsPerDelivery * post;
  const quietMs = quiet.node + quiet.dynamoDbLocal;
  const socketsRatio = (pushMs: number) => quietMs / (quietMs + pushMs);
  return {
    least: bound(least),
    withPushReads: bound(least + pushReads),
    withWebhookDeliveries: bound(least + pushReads + on.webhookPostsPerDelivery * (delivery - post)),
    pushLeastMs: frames + pushReads,
    socketsRatio: socketsRatio(frames + pushReads),
    // The same cap for a push that read less: its frames and where the sockets are; its frames alone.
    socketsRatioWithoutCounts: socketsRatio(frames + sockets),
    socketsRatioFramesOnly: socketsRatio(frames),
  };
}

const boundText = (b: RatioBound) =>
  `${n(b.ms, 1)} → floor ratio ≤ ${n(b.atBusyCores, 2)} at the run's ${n(b.busyCores, 2)} busy cores, ` +
  `≤ ${n(b.atAllCores, 2)} at all ${b.cores}`;

function printSideWork(r: AddedCostsResult): void {
  const on = named(r, 'everything on');
  const push = on.pushAlone;
  const hook = on.webhookAlone;
  if (!push || !hook) return;
  const rate = (x: AloneRate) => `${n(x.perSec, 0)} / s, ${cpuSplit(x.cpuMs)}`;
  const bounds = sideWorkBounds(r);
  table(
    '3h. The socket push and a webhook event with nothing around them (called directly, 32 in flight; median of 3 rounds): ' +
      'per second, CPU ms each (this process + DynamoDB Local)',
    ['measure', 'value'],
    [
      [`the push of an arrival, whole (${push.arrivals} arrivals)`, rate(push.push)],
      ['  its three frames (PostToConnection, local socket API, `ws` clients)', rate(push.frames)],
      ["  where the subscriber's sockets are (1 Query)", rate(push.sockets)],
      ['  the unread and unseen counts (2 Queries, each reading up to 100 index entries)', rate(push.counts)],
      ['  the message and profile the first frame shows (2 GetItem)', rate(push.messageAndProfile)],
      [
        `a webhook event's delivery, whole (${hook.events} events: endpoint and attempt read, signed POST, attempt written)`,
        rate(hook.delivery),
      ],
      ['  the signed POST alone', rate(hook.post)],
      ...(bounds
        ? [
            ['the least of a delivery: its items, frames and POSTs, CPU ms', boundText(bounds.least)],
            ["  with the push's reads of sockets and counts", boundText(bounds.withPushReads)],
            ["  and each webhook event's reads and attempt written (its delivery whole)", boundText(bounds.withWebhookDeliveries)],
            [
              'the least a push does (frames, sockets and counts), CPU ms per arrival',
              `${n(bounds.pushLeastMs, 1)} → sockets ratio ≤ ${n(bounds.socketsRatio, 2)} while it shares the cores with the pipeline`,
            ],
            [
              '  a push that read no counts; one that read nothing (its frames alone)',
              `sockets ratio ≤ ${n(bounds.socketsRatioWithoutCounts, 2)}; ≤ ${n(bounds.socketsRatioFramesOnly, 2)}`,
            ],
          ]
        : []),
    ],
  );
}
