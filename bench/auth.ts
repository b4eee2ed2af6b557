import { performance } from 'node:perf_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { findCallerByApiKey, hashApiKey } from '#lib/auth/api-keys.ts';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import type { Bench } from './harness.ts';
import { costOf, expectStatus, type Cost } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';
import { percentile } from './stats.ts';

// What authenticating a request costs today (issue 22, item 2): the API-key check every API-key
// route runs before its own work, alone and as a share of the cheapest authenticated route. It
// decides whether an API Gateway authorizer with a result cache is worth building
// (docs/performance.md, "Authentication").

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
