import { performance } from 'node:perf_hooks';
import { shardOf } from '#lib/store/keys.ts';
import { TABLE } from '#lib/store/table.ts';
import type { CpuBySide } from './cpu.ts';
import { putRateNow } from './floor.ts';
import { median } from './stats.ts';
import type { BenchEnv } from './seed.ts';
import { replayDeliveryWrites, replayItems, sampleDeliveryWrites } from './write-bound.ts';

// What two additions since 2026-11-24 cost a delivery's writes, which no switch can take out of
// the pipeline (they are in its items): the TTL attribute (retention) and the sharded index keys.
// A delivery's real items are replayed as stored, without `ttl`, and with every key on shard 0
// (the keys from before sharding), interleaved; their sizes are compared; and `shardOf`, the only
// work sharding adds to the writer, is timed alone. A fourth replay writes the same items with
// their index key attributes renamed (same bytes, no index entries): what the emulator's
// synchronous upkeep of the indexes takes from the writes, which DynamoDB does apart from them;
// a fifth keeps every key and puts the rest of each item in one string of the same length: what
// the items' many nested attributes cost to marshal, send and parse.

export interface ReplayVariants {
  deliveries: number;
  /** CPU ms per delivery of the items as stored, each side (median of the rounds; Linux). */
  asStoredCpuMs?: CpuBySide;
  /** The floor's PutItem rate measured at the start of each round (median of the three). */
  floorPutsPerSec: number;
  /** Deliveries per second of the replayed writes, each variant the median of three rounds. */
  deliveriesPerSec: { asStored: number; withoutTtl: number; unsharded: number; withoutIndexEntries: number; flat: number };
  /** Bytes of the three items (event, notification, message) as stored and without `ttl`. */
  itemBytes: { asStored: number; withoutTtl: number };
  /** Microseconds of one `shardOf` call (FNV-1a + murmur3 finalizer over an id). */
  shardOfMicros: number;
}

const withoutTtl = (item: Record<string, unknown>) => {
  const { [TABLE.ttlAttribute]: _ttl, ...rest } = item;
  return rest;
};

/** The keys from before sharding: shard n's kind or suffix taken off (`TXN<n>#`, `#ACT#<day>#<n>`, `#MSGS#<n>`). */
const unsharded = (item: Record<string, unknown>) => {
  const out: Record<string, unknown> = { ...item };
  for (const [k, v] of Object.entries(item)) {
    if (typeof v !== 'string') continue;
    out[k] = v
      .replace(/#TXN\d+#/, '#TXN#')
      .replace(/(#ACT#[^#]+)#\d+$/, '$1')
      .replace(/#MSGS#\d+$/, '#MSGS');
  }
  return out;
};

/** The table's index key attributes, and with the table's own keys every key attribute an item may hold. */
const INDEX_KEYS = new Set<string>(TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey]));
const KEYS = new Set<string>([TABLE.partitionKey, TABLE.sortKey, ...INDEX_KEYS]);

/** The index key attributes under other names of the same length (`_` first): the item's bytes unchanged, no index entry written. */
const withoutIndexEntries = (item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).map(([k, v]) => [INDEX_KEYS.has(k) ? `_${k.slice(1)}` : k, v]));

/** Every key attribute kept (table and index), the rest in one string as long as their JSON. */
const flat = (item: Record<string, unknown>) => {
  const keysOnly = Object.fromEntries(Object.entries(item).filter(([k]) => KEYS.has(k)));
  const rest = Object.fromEntries(Object.entries(item).filter(([k]) => !KEYS.has(k)));
  return { ...keysOnly, body: 'x'.repeat(Buffer.byteLength(JSON.stringify(rest))) };
};

/** Rough DynamoDB item size: attribute names and values as JSON (enough to compare two variants). */
const bytesOf = (item: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(item));

export async function replayVariants(env: BenchEnv, deliveries: number, subscribers: number): Promise<ReplayVariants> {
  const sample = await sampleDeliveryWrites(env);
  const runs = {
    asStored: [] as number[],
    withoutTtl: [] as number[],
    unsharded: [] as number[],
    withoutIndexEntries: [] as number[],
    flat: [] as number[],
  };
  const floor: number[] = [];
  const asStoredCpu: CpuBySide[] = [];
  const rate = async (transform?: (item: Record<string, unknown>) => Record<string, unknown>) =>
    (await replayDeliveryWrites(sample, { deliveries, subscribers, ...(transform && { transform }) })).perSec;
  for (let round = 0; round < 3; round++) {
    // The floor in the same round: the emulator's speed drifts over minutes (GC, compilation, what else runs).
    floor.push(await putRateNow({ itemBytes: 700, puts: Math.max(200, deliveries * 2) }));
    const asStored = await replayDeliveryWrites(sample, { deliveries, subscribers });
    runs.asStored.push(asStored.perSec);
    if (asStored.cpuMs) asStoredCpu.push(asStored.cpuMs);
    runs.withoutTtl.push(await rate(withoutTtl));
    runs.unsharded.push(await rate(unsharded));
    runs.withoutIndexEntries.push(await rate(withoutIndexEntries));
    runs.flat.push(await rate(flat));
  }
  const items = replayItems(sample, { _organizationId: 'o', _environmentId: 'e' }, 'sub');
  const all = [items.event, items.notification, items.message] as Record<string, unknown>[];
  const calls = 200_000;
  const ids = Array.from({ length: 1_000 }, (_, i) => `0190f3a2b7c4d5e6f7a8b9c${i.toString().padStart(4, '0')}`);
  const started = performance.now();
  let sink = 0;
  for (let i = 0; i < calls; i++) sink += shardOf(ids[i % ids.length]!, 16);
  const shardOfMicros = ((performance.now() - started) * 1000) / calls + (sink < 0 ? 1 : 0);
  return {
    deliveries,
    floorPutsPerSec: median(floor),
    ...(asStoredCpu.length === 3 && {
      asStoredCpuMs: { node: median(asStoredCpu.map((c) => c.node)), dynamoDbLocal: median(asStoredCpu.map((c) => c.dynamoDbLocal)) },
    }),
    deliveriesPerSec: {
      asStored: median(runs.asStored),
      withoutTtl: median(runs.withoutTtl),
      unsharded: median(runs.unsharded),
      withoutIndexEntries: median(runs.withoutIndexEntries),
      flat: median(runs.flat),
    },
    itemBytes: { asStored: all.reduce((s, i) => s + bytesOf(i), 0), withoutTtl: all.reduce((s, i) => s + bytesOf(withoutTtl(i)), 0) },
    shardOfMicros,
  };
}
