import { performance } from 'node:perf_hooks';
import { newId } from '#lib/ids.ts';
import { checkRateLimit } from '#lib/rate-limits/check.ts';
import type { Bench } from './harness.ts';
import { costOf, type Cost } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';
import { percentile } from './stats.ts';
import { n, table } from './table.ts';

// What the API rate-limit check adds to every API-key request (issue 22, item 1): the check
// alone (the bucket's one conditional UpdateItem, the organization's limits from the container's
// cache), and a check that misses that cache (once per organization, container and 30 s: a
// GetItem of the organization first). Its time is what the check adds to a request's latency.

export interface RateLimitResult {
  calls: number;
  /** A request's check, the organization's limits cached: its added latency. */
  check: { p50Ms: number; p99Ms: number; perCall: Cost };
  /** The check when the container has not read the organization's limits yet. */
  uncached: { p50Ms: number; perCall: Cost };
}

export async function measureRateLimit(bench: Bench, env: BenchEnv, calls: number): Promise<RateLimitResult> {
  await bench.idle();
  await bench.setConsumerConcurrency(0);
  const check = () => checkRateLimit(env.scope, 'global', 'single');
  // An organization no container has seen: its limits are read (and, absent, never cached).
  const uncached = () => checkRateLimit({ organizationId: newId(), environmentId: newId() }, 'global', 'single');
  for (let i = 0; i < 5; i++) await Promise.all([check(), uncached()]); // warm: modules, connections

  const times = await bench.timed(async () => {
    const t = { check: [] as number[], uncached: [] as number[] };
    for (let i = 0; i < calls; i++) {
      for (const [kind, call] of [
        ['check', check],
        ['uncached', uncached],
      ] as const) {
        const started = performance.now();
        await call();
        t[kind].push(performance.now() - started);
      }
    }
    return t;
  });
  const sample = Math.min(20, calls);
  const counted = async (call: () => Promise<unknown>) => {
    const before = bench.snapshot();
    for (let i = 0; i < sample; i++) await call();
    return costOf(bench.since(before).dynamo, sample);
  };
  return {
    calls,
    check: { p50Ms: percentile(times.check, 50), p99Ms: percentile(times.check, 99), perCall: await counted(check) },
    uncached: { p50Ms: percentile(times.uncached, 50), perCall: await counted(uncached) },
  };
}

/** Its table: in BENCH_ONLY=auth and in the whole run. */
export function printRateLimit(r: RateLimitResult): void {
  const ops = (c: { byOperation: Record<string, number> }) =>
    Object.entries(c.byOperation)
      .map(([k, v]) => `${k} ${n(v, 2)}`)
      .join(', ');
  table(
    `API rate-limit check, added to every API-key request (${r.calls} calls each)`,
    ['measure', 'p50 ms', 'p99 ms', 'DynamoDB requests / call', 'write units / call', 'read units / call'],
    [
      [
        'the check (organization limits cached)',
        r.check.p50Ms,
        r.check.p99Ms,
        ops(r.check.perCall),
        r.check.perCall.writeUnits,
        r.check.perCall.readUnits,
      ],
      [
        'the check, organization not cached (once per 30 s)',
        r.uncached.p50Ms,
        '',
        ops(r.uncached.perCall),
        r.uncached.perCall.writeUnits,
        r.uncached.perCall.readUnits,
      ],
    ],
  );
}
