import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mapConcurrently } from '#lib/concurrency.ts';
import { hasMessage } from './fan-out.ts';
import { putLatency } from './floor.ts';
import { startBench, type Bench } from './harness.ts';
import { loadNow, machineOf, SMOKE, writeResults, type Machine } from './results-path.ts';
import { CONSUMER_CONCURRENCY } from './settings.ts';
import { bulkBody, createInAppWorkflow, expectStatus, type WorkflowRef } from './scenarios.ts';
import { benchOrganization, seedSubscribers, type BenchEnv } from './seed.ts';
import { percentile, round } from './stats.ts';

// No noisy neighbours (docs/performance.md, "No noisy neighbours"): one environment's flood of
// bulk triggers against another environment's single triggers, one at a time. Measured: trigger
// request → the quiet subscriber's inbox message stored, first with nothing else running, then
// while the flood is being delivered; and whether the flood was still undelivered (its queue not
// empty) when each quiet message arrived. Beside each quiet trigger the same two measures of
// what lies outside the service's code are taken, alone and during the flood: a bare PutItem from
// a client of its own (DynamoDB Local's answer time at that moment) and this process's event-loop
// delay (locally every handler and consumer shares one Node process; in AWS each has its own).
// BENCH_ONLY=flood runs it (bench/results-flood.json; the smoke run, on its whole run's stack);
// BENCH_FLOOD_EVENTS (50,000) and BENCH_FLOOD_QUIET (30 triggers each way) size it.

export interface FloodOptions {
  floodEvents: number;
  quietTriggers: number;
  /** Bulk requests (100 events each) in flight at once. */
  floodParallel: number;
}

export interface Latency {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** This process's event-loop delay over a phase (ms). */
type LoopDelay = Pick<Latency, 'p50Ms' | 'p99Ms'>;

/** What bounds any request here, whatever the service does: the emulator and the shared process. */
export interface FloodBound {
  /** A bare PutItem (700 bytes) from a client of its own, PROBES_PER_TRIGGER after each quiet trigger. */
  putWithoutFlood: Latency;
  putDuringFlood: Latency;
  /** The bare PutItem's p99 during the flood ÷ without it. */
  putP99Ratio: number;
  /** This process's event-loop delay over each phase (ms). */
  eventLoopDelayWithoutFlood: LoopDelay;
  eventLoopDelayDuringFlood: LoopDelay;
}

export interface FloodResult {
  floodEvents: number;
  withoutFlood: Latency;
  duringFlood: Latency;
  /** p99 during the flood ÷ p99 without it (target ≤ 2). */
  p99Ratio: number;
  bound: FloodBound;
  /** Quiet messages that arrived while flood messages were still queued. */
  deliveredWhileFloodQueued: number;
  /** Least flood messages left queued when a quiet message arrived. */
  leastFloodQueued: number;
  floodAcceptedMs: number;
  floodDeliveredMs: number;
  floodDeliveriesPerSec: number;
}

const EVENTS_PER_REQUEST = 100;
const PROBES_PER_TRIGGER = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function latency(samples: readonly number[]): Latency {
  return {
    samples: samples.length,
    p50Ms: round(percentile(samples, 50)),
    p99Ms: round(percentile(samples, 99)),
    maxMs: round(Math.max(...samples)),
  };
}

/** One single trigger of the quiet environment, timed until its subscriber's message is stored. */
async function quietDelivery(bench: Bench, quiet: BenchEnv, workflow: WorkflowRef, subscriberId: string): Promise<number> {
  const started = performance.now();
  await expectStatus(
    bench.api(quiet.apiKey)('POST', '/v1/events/trigger', { name: workflow.workflowId, to: subscriberId, payload: { comment: 'hi' } }),
    201,
    'quiet trigger',
  );
  // Polled every 10 ms: a few reads against the flood's hundreds of thousands.
  while (!(await hasMessage(quiet.scope, subscriberId))) {
    if (performance.now() - started > 300_000) throw new Error(`flood: no message for ${subscriberId} within 5 minutes`);
    await sleep(10);
  }
  return performance.now() - started;
}

export async function measureFlood(bench: Bench, noisy: BenchEnv, quiet: BenchEnv, options: FloodOptions): Promise<FloodResult> {
  const floodWorkflow = await createInAppWorkflow(bench.api(noisy.apiKey), 'flood-noisy');
  const quietWorkflow = await createInAppWorkflow(bench.api(quiet.apiKey), 'flood-quiet');
  const floodSubscribers = (
    await seedSubscribers(
      noisy.scope,
      Array.from({ length: 1_000 }, (_, i) => `flood-${i}`),
    )
  ).map((s) => s.subscriberId);
  const quietIds = (phase: string) => Array.from({ length: options.quietTriggers }, (_, i) => `quiet-${phase}-${i}`);
  const [before, during] = await Promise.all([
    seedSubscribers(quiet.scope, quietIds('before')),
    seedSubscribers(quiet.scope, quietIds('during')),
  ]);
  await bench.idle();

  const probe = putLatency(700);
  const probes = async (into: number[]) => {
    for (let i = 0; i < PROBES_PER_TRIGGER; i++) into.push(await probe());
  };
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const loopPhase = (): LoopDelay => {
    const phase = { p50Ms: round(loopDelay.percentile(50) / 1e6), p99Ms: round(loopDelay.percentile(99) / 1e6) };
    loopDelay.disable();
    loopDelay.reset();
    return phase;
  };

  // The quiet environment alone (its first trigger warms the path up and is not counted).
  await quietDelivery(bench, quiet, quietWorkflow, `quiet-warm-${Date.now()}`);
  await probes([]);
  const alone: number[] = [];
  const putsAlone: number[] = [];
  loopDelay.enable();
  for (const s of before) {
    alone.push(await quietDelivery(bench, quiet, quietWorkflow, s.subscriberId));
    await probes(putsAlone);
  }
  const loopAlone = loopPhase();

  // The flood: every bulk request sent as fast as the API takes them; the quiet triggers start
  // once a tenth of it is accepted, one after another, while the rest is sent and delivered.
  const depthClient = new SQSClient({ useQueueUrlAsEndpoint: false });
  const floodQueued = async () => {
    const { Attributes = {} } = await depthClient.send(
      new GetQueueAttributesCommand({
        QueueUrl: bench.stack.queueUrls.bulk!,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return Object.values(Attributes).reduce((sum, v) => sum + Number(v), 0);
  };
  const requests = Math.ceil(options.floodEvents / EVENTS_PER_REQUEST);
  let accepted = 0;
  const floodStarted = performance.now();
  let floodAcceptedAt = 0;
  const flood = mapConcurrently(
    Array.from({ length: requests }, (_, r) => r),
    options.floodParallel,
    async (r) => {
      const ids = Array.from(
        { length: EVENTS_PER_REQUEST },
        (_, i) => floodSubscribers[(r * EVENTS_PER_REQUEST + i) % floodSubscribers.length]!,
      );
      await expectStatus(
        bench.api(noisy.apiKey)('POST', '/v1/events/trigger/bulk', bulkBody(floodWorkflow.workflowId, ids, `flood-${r}`)),
        201,
        'flood',
      );
      accepted++;
    },
  ).then(() => (floodAcceptedAt = performance.now()));
  while (accepted < requests / 10) await sleep(20);
  const meanwhile: number[] = [];
  const putsDuring: number[] = [];
  const queuedAtDelivery: number[] = [];
  loopDelay.enable();
  for (const s of during) {
    meanwhile.push(await quietDelivery(bench, quiet, quietWorkflow, s.subscriberId));
    queuedAtDelivery.push(await floodQueued());
    await probes(putsDuring);
  }
  const loopDuring = loopPhase();
  await flood;
  await bench.idle(3_600_000);
  const floodDoneAt = performance.now();
  depthClient.destroy();

  const withoutFlood = latency(alone);
  const duringFlood = latency(meanwhile);
  const putWithoutFlood = latency(putsAlone);
  const putDuringFlood = latency(putsDuring);
  return {
    floodEvents: requests * EVENTS_PER_REQUEST,
    withoutFlood,
    duringFlood,
    p99Ratio: round(duringFlood.p99Ms / withoutFlood.p99Ms),
    bound: {
      putWithoutFlood,
      putDuringFlood,
      putP99Ratio: round(putDuringFlood.p99Ms / putWithoutFlood.p99Ms),
      eventLoopDelayWithoutFlood: loopAlone,
      eventLoopDelayDuringFlood: loopDuring,
    },
    deliveredWhileFloodQueued: queuedAtDelivery.filter((q) => q > 0).length,
    leastFloodQueued: Math.min(...queuedAtDelivery),
    floodAcceptedMs: round(floodAcceptedAt - floodStarted),
    floodDeliveredMs: round(floodDoneAt - floodStarted),
    floodDeliveriesPerSec: round((requests * EVENTS_PER_REQUEST) / ((floodDoneAt - floodStarted) / 1000)),
  };
}

/** bench/results-flood.json. */
export interface FloodResults {
  startedAt: string;
  machine: Machine;
  consumerConcurrency: number;
  target: { p99Ratio: number; ok: boolean };
  flood: FloodResult;
}

const FLOOD_OPTIONS: FloodOptions = {
  floodEvents: Number(process.env.BENCH_FLOOD_EVENTS ?? (SMOKE ? 500 : 50_000)),
  quietTriggers: Number(process.env.BENCH_FLOOD_QUIET ?? (SMOKE ? 5 : 30)),
  floodParallel: 4,
};

/**
 * The flood on `bench`, for an organization of its own; written and printed. `since`: when the
 * run began and the load then (the mode's, before its stack started).
 */
export async function floodSection(bench: Bench, since = { startedAt: new Date(), load: loadNow() }): Promise<FloodResults> {
  const load = [since.load];
  const { dev, prod } = await benchOrganization();
  const flood = await measureFlood(bench, dev, prod, FLOOD_OPTIONS);
  load.push(loadNow());
  const results: FloodResults = {
    startedAt: since.startedAt.toISOString(),
    machine: machineOf(load),
    consumerConcurrency: CONSUMER_CONCURRENCY,
    target: { p99Ratio: 2, ok: flood.p99Ratio <= 2 },
    flood,
  };
  writeResults('results-flood.json', results, true);
  console.log(JSON.stringify(results, null, 2));
  return results;
}

/** BENCH_ONLY=flood: the section on a stack of its own. */
export async function floodOnly(): Promise<void> {
  const since = { startedAt: new Date(), load: loadNow() };
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY });
  try {
    await floodSection(bench, since);
  } finally {
    await bench.stop();
  }
}
