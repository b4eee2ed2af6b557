import { performance } from 'node:perf_hooks';
import { mapConcurrently } from '#lib/concurrency.ts';
import { coresUsed, cpuMsPerDeliveryBySide, cpuNow, type CpuBySide } from './cpu.ts';

// Timing one piece of work with nothing around it, 32 calls in flight as the floor's writes are
// timed: a delivery's writes replayed (bench/write-bound.ts), the socket push and a webhook event
// called directly (bench/push-alone.ts, bench/webhook-alone.ts).

const IN_FLIGHT = 32;

export interface AloneRate {
  /** Units of work per second. */
  perSec: number;
  /** CPU of this process and of DynamoDB Local per unit (ms; Linux). */
  cpuMs?: CpuBySide;
}

/** Runs `tasks`; the rate and CPU are per unit of work: a task each, unless `units` says (a delivery's writes are several). */
export async function timedAlone(tasks: readonly (() => Promise<unknown>)[], units = tasks.length): Promise<AloneRate> {
  const before = cpuNow();
  const started = performance.now();
  await mapConcurrently(tasks, IN_FLIGHT, (task) => task());
  const seconds = (performance.now() - started) / 1000;
  const perSec = units / seconds;
  const cpuMs = cpuMsPerDeliveryBySide(coresUsed(before, cpuNow(), seconds), perSec);
  return { perSec, ...(cpuMs && { cpuMs }) };
}

/**
 * Each variant `count` calls a round, the variants interleaved over `rounds` rounds (the machine
 * drifts over minutes); the median round of each.
 */
export async function medianRounds<K extends string>(
  variants: Record<K, (i: number) => Promise<unknown>>,
  count: number,
  rounds = 3,
): Promise<Record<K, AloneRate>> {
  const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as AloneRate[]])) as Record<K, AloneRate[]>;
  for (let round = 0; round < rounds; round++)
    for (const [name, one] of Object.entries(variants) as [K, (i: number) => Promise<unknown>][])
      runs[name].push(await timedAlone(Array.from({ length: count }, (_, i) => () => one(i))));
  const middle = (rates: AloneRate[]) => [...rates].sort((a, b) => a.perSec - b.perSec)[Math.floor(rounds / 2)]!;
  return Object.fromEntries((Object.entries(runs) as [K, AloneRate[]][]).map(([k, rates]) => [k, middle(rates)])) as Record<K, AloneRate>;
}
