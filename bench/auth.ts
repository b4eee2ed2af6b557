import { performance } from 'node:perf_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { findCallerByApiKey, hashApiKey } from '#lib/auth/api-keys.ts';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { startBench, type Bench } from './harness.ts';
import { measureRateLimit, printRateLimit, type RateLimitResult } from './rate-limit.ts';
import { loadNow, machineOf, SMOKE, writeResults, type Machine } from './results-path.ts';
import { CONSUMER_CONCURRENCY } from './settings.ts';
import { costOf, expectStatus, type Cost } from './scenarios.ts';
import { benchOrganization, type BenchEnv } from './seed.ts';
import { percentile } from './stats.ts';
import { n, table } from './table.ts';

// What authenticating a request costs today (issue 22, item 2): the API-key check every API-key
// route runs before its own work, alone and as a share of the cheapest authenticated route. It
// decides whether an API Gateway authorizer with a result cache is worth building
// (docs/performance.md, "Authentication"). BENCH_ONLY=auth runs it with the rate-limit check
// (bench/results-auth.json), BENCH_AUTH_CALLS times each (500); the smoke run, as a section of its whole run.

export interface AuthResult {
  calls: number;
  /** findCallerByApiKey alone (hash, one consistent GetItem, the expiry check). */
  check: { p50Ms: number; p99Ms: number; perCall: Cost };
  /** GET /v1/environments/me through the route table: the check plus one GetItem of its own. */
  route: { p50Ms: number; p99Ms: number; perCall: Cost };
  /** A refused key (no item): the same read. */
  refused: { p50Ms: number; perCall: Cost };
  /** The floor: a consistent GetItem of the key's item, straight from a document client. */
  rawGetMs: { p50: number; p99: number };
}

/** Each call timed, the kinds interleaved so that a change of the machine's load hits them alike. */
async function timeInterleaved<K extends string>(calls: number, kinds: Record<K, () => Promise<unknown>>): Promise<Record<K, number[]>> {
  const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < calls; i++) {
    for (const [kind, call] of Object.entries(kinds) as [K, () => Promise<unknown>][]) {
      const started = performance.now();
      await call();
      times[kind].push(performance.now() - started);
    }
  }
  return times;
}

/** Counted on calls of their own, with capacity asked for (not while timed). */
async function counted(bench: Bench, calls: number, call: () => Promise<unknown>): Promise<Cost> {
  const before = bench.snapshot();
  for (let i = 0; i < calls; i++) await call();
  return costOf(bench.since(before).dynamo, calls);
}

export async function measureAuth(bench: Bench, env: BenchEnv, calls: number): Promise<AuthResult> {
  await bench.idle();
  await bench.setConsumerConcurrency(0);
  const check = () =>
    findCallerByApiKey(env.apiKey).then((caller) => {
      if (!caller) throw new Error('bench key refused');
    });
  const unknown = () => findCallerByApiKey('0'.repeat(48));
  const me = bench.api(env.apiKey);
  const route = () => expectStatus(me('GET', '/v1/environments/me'), 200, 'getCurrentEnvironment');

  const raw = () => db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashApiKey(env.apiKey)), ConsistentRead: true }));
  for (let i = 0; i < 5; i++) await Promise.all([route(), raw()]); // warm: modules, connections

  const t = await bench.timed(() => timeInterleaved(calls, { check, route, unknown, raw }));
  const sample = Math.min(20, calls);
  return {
    calls,
    check: { p50Ms: percentile(t.check, 50), p99Ms: percentile(t.check, 99), perCall: await counted(bench, sample, check) },
    route: { p50Ms: percentile(t.route, 50), p99Ms: percentile(t.route, 99), perCall: await counted(bench, sample, route) },
    refused: { p50Ms: percentile(t.unknown, 50), perCall: await counted(bench, sample, unknown) },
    rawGetMs: { p50: percentile(t.raw, 50), p99: percentile(t.raw, 99) },
  };
}

/** bench/results-auth.json. */
export interface AuthResults {
  startedAt: string;
  machine: Machine;
  auth: AuthResult;
  rateLimit: RateLimitResult;
}

const AUTH_CALLS = Number(process.env.BENCH_AUTH_CALLS ?? (SMOKE ? 20 : 500));

/**
 * Authentication and the rate-limit check on `bench`, for an organization of their own; written
 * and printed. `since`: when the run began and the load then (the mode's, before its stack started).
 */
export async function authSection(bench: Bench, since = { startedAt: new Date(), load: loadNow() }): Promise<AuthResults> {
  const { startedAt } = since;
  const load = [since.load];
  const { dev } = await benchOrganization();
  const auth = await measureAuth(bench, dev, AUTH_CALLS);
  const rateLimit = await measureRateLimit(bench, dev, AUTH_CALLS);
  load.push(loadNow());
  const results: AuthResults = { startedAt: startedAt.toISOString(), machine: machineOf(load), auth, rateLimit };
  writeResults('results-auth.json', results);
  printAuth(results);
  return results;
}

/** BENCH_ONLY=auth: the section on a stack of its own. */
export async function authOnly(): Promise<void> {
  const since = { startedAt: new Date(), load: loadNow() };
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY });
  try {
    await authSection(bench, since);
  } finally {
    await bench.stop();
  }
}

function printAuth(results: AuthResults): void {
  const { auth, rateLimit } = results;
  console.log(`\nAuthentication ${results.startedAt} · ${results.machine.cpus} CPUs · load ${results.machine.loadAverage1m.join(' → ')}`);
  const ops = (c: { byOperation: Record<string, number> }) =>
    Object.entries(c.byOperation)
      .map(([k, v]) => `${k} ${n(v, 2)}`)
      .join(', ');
  table(
    `API-key authentication (${auth.calls} calls each, one after another)`,
    ['measure', 'p50 ms', 'p99 ms', 'DynamoDB requests / call', 'read units / call'],
    [
      [
        'the key check alone (findCallerByApiKey)',
        auth.check.p50Ms,
        auth.check.p99Ms,
        ops(auth.check.perCall),
        auth.check.perCall.readUnits,
      ],
      ['an unknown key (refused)', auth.refused.p50Ms, '', ops(auth.refused.perCall), auth.refused.perCall.readUnits],
      [
        'GET /v1/environments/me (check + its own read)',
        auth.route.p50Ms,
        auth.route.p99Ms,
        ops(auth.route.perCall),
        auth.route.perCall.readUnits,
      ],
      ['floor: a consistent GetItem of the key item', auth.rawGetMs.p50, auth.rawGetMs.p99, 'GetItem 1', 1],
    ],
  );
  printRateLimit(rateLimit);
}
