import { performance } from 'node:perf_hooks';
import { mapConcurrently } from '#lib/concurrency.ts';
import { coresUsed, cpuMsPerDeliveryBySide, cpuNow } from './cpu.ts';

// Timing one piece of the service's work with nothing around it (bench/push-alone.ts,
// bench/webhook-alone.ts): `count` calls, 32 in flight, as the floor's writes are timed.

const IN_FLIGHT = 32;

export interface AloneRate {
  perSec: number;
  /** CPU of this process and of DynamoDB Local per call (ms; Linux). */
  cpuMs?: { node: number; dynamoDbLocal: number };
}

export async function timedAlone(count: number, one: (i: number) => Promise<unknown>): Promise<AloneRate> {
  const before = cpuNow();
  const started = performance.now();
  await mapConcurrently(
    Array.from({ length: count }, (_, i) => i),
    IN_FLIGHT,
    one,
  );
  const seconds = (performance.now() - started) / 1000;
  const perSec = count / seconds;
  const cpuMs = cpuMsPerDeliveryBySide(coresUsed(before, cpuNow(), seconds), perSec);
  return { perSec, ...(cpuMs && { cpuMs }) };
}

/** Each variant timed in `rounds` rounds, interleaved (the machine drifts over minutes); the median round of each. */
export async function medianRounds<K extends string>(
  variants: Record<K, (i: number) => Promise<unknown>>,
  count: number,
  rounds = 3,
): Promise<Record<K, AloneRate>> {
  const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as AloneRate[]])) as Record<K, AloneRate[]>;
  for (let round = 0; round < rounds; round++)
    for (const [name, one] of Object.entries(variants) as [K, (i: number) => Promise<unknown>][])
      runs[name].push(await timedAlone(count, one));
  const middle = (rates: AloneRate[]) => [...rates].sort((a, b) => a.perSec - b.perSec)[Math.floor(rounds / 2)]!;
  return Object.fromEntries((Object.entries(runs) as [K, AloneRate[]][]).map(([k, rates]) => [k, middle(rates)])) as Record<K, AloneRate>;
}
