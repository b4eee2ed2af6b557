import './env.ts';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { measureAuth } from './auth.ts';
import { measureRateLimit, type RateLimitResult } from './rate-limit.ts';
import { measureBundles, type BundlesResult } from './bundles.ts';
import { costPerMillionEvents } from './cost.ts';
import { coresUsed, cpuMsPerDelivery, cpuNow } from './cpu.ts';
import { measureFloor, putRateNow } from './floor.ts';
import { startBench, type Bench } from './harness.ts';
import { largeTopic, type LargeTopicResult } from './fan-out.ts';
import { floodOnly } from './flood.ts';
import { resultsPath, SMOKE } from './results-path.ts';
import { liveUnderLoad, type LiveResult } from './live.ts';
import { BENCH_LONG_WAIT_SECONDS, longWaits, type LongWaitResult } from './long-waits.ts';
import { replayDeliveryWrites, sampleDeliveryWrites } from './write-bound.ts';
import {
  bulkTrigger,
  compareDepth,
  createInAppWorkflow,
  digestOfTen,
  endToEnd,
  expectStatus,
  measureEndpoints,
  type Cost,
  type EndpointCase,
  type WorkflowRef,
} from './scenarios.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import { inboxDepth, seedInbox } from './inbox.ts';
import { benchOrganization, seedNotifications, seedSubscribers, seedSubscriptions, type BenchEnv } from './seed.ts';
import { round } from './stats.ts';
import { n, table, type Check } from './table.ts';
import { measureAddedCosts, type AddedCostsResult } from './added-costs.ts';
import { addedCostChecks, printAddedCosts } from './added-costs-report.ts';

// `npm run bench`: speed, cost and scale of the service on the local stack, against the floor of
// this machine (issue 8). Prints a table and writes bench/results.json. Not a test: numbers vary
// with the machine and its load, so the targets are checked here and reported, never asserted.
//
// BENCH_QUICK=1 runs smaller data sets (a smoke run); BENCH_CONSUMER_CONCURRENCY sets the batches
// each consumer handles at once (default 8). The live section sends BENCH_LIVE_RATE single
// triggers per second (25) for BENCH_LIVE_SECONDS (30) to BENCH_LIVE_SUBSCRIBERS subscribers
// (200), without sockets and then with one open each; BENCH_ONLY=live runs that section alone,
// with what a delivery without sockets costs (bench/results-live.json). The large-audience section
// triggers topics of BENCH_AUDIENCES members (1,000, 10,000 and 50,000); BENCH_ONLY=fanout runs it
// alone, with the end-to-end run it is compared with (bench/results-fanout.json). BENCH_ONLY=auth
// measures what authenticating an API-key request costs, BENCH_AUTH_CALLS times (500) each
// (bench/results-auth.json), and what the API rate-limit check adds to each, the same number of
// times (also a section of the whole run). BENCH_ONLY=waits measures what a 30-day delay costs
// (bench/results-waits.json). BENCH_ONLY=flood measures one environment's flood against another's
// single triggers (bench/flood.ts, bench/results-flood.json). BENCH_ONLY=costs measures where a one-recipient in-app delivery's
// time goes: everything added since 2026-11-24 on, then each switched off (bench/added-costs.ts;
// bench/results-costs.json; also the last section of the whole run), BENCH_ADDED_COST_EVENTS
// events per variant (3,000). BENCH_SMOKE=1 runs every
// section at its smallest (the load tests' smoke run, test/load/bench.test.ts); BENCH_RESULTS_DIR
// writes the results elsewhere than bench/.

const QUICK = process.env.BENCH_QUICK === '1';
const CONSUMER_CONCURRENCY = Number(process.env.BENCH_CONSUMER_CONCURRENCY ?? 8);
/** The load tests' smoke run (test/load/bench.test.ts): every section at the smallest sizes that exercise it. */
const SIZES = SMOKE
  ? {
      // Sections take subscribers 0–99 (end to end, live), from 100 (digests) and 200–299 (the bulk endpoint's latency).
      subscribers: 300,
      subscriptions: 1_100,
      notifications: 1_000,
      bulkRequests: 2,
      e2eRequests: 2,
      replayDeliveries: 200,
      digests: 2,
      calls: 3,
      bulkCalls: 2,
      depthSamples: 2,
      initRuns: 1,
      longWaits: 5,
      inboxLarge: 300,
      addedCostEvents: 50,
    }
  : QUICK
    ? {
        subscribers: 300,
        subscriptions: 1_100,
        notifications: 5_000,
        bulkRequests: 10,
        e2eRequests: 5,
        replayDeliveries: 1_000,
        digests: 5,
        calls: 20,
        bulkCalls: 5,
        depthSamples: 10,
        initRuns: 1,
        longWaits: 20,
        inboxLarge: 10_000,
        addedCostEvents: 1_000,
      }
    : {
        subscribers: 1_000,
        subscriptions: 1_100,
        notifications: 50_000,
        bulkRequests: 30,
        e2eRequests: 60,
        replayDeliveries: 3_000,
        digests: 10,
        calls: 100,
        bulkCalls: 30,
        depthSamples: 40,
        initRuns: 5,
        longWaits: 100,
        inboxLarge: 10_000,
        addedCostEvents: 3_000,
      };
const SMALL_ENVIRONMENT = SMOKE ? 100 : 1_000;
const LIVE = {
  // 200/s builds a backlog on the 2-CPU machine the bench runs on (so does 100/s): every push is
  // ~5 more DynamoDB Local requests and 3 PostToConnection calls (docs/performance.md, "Live").
  perSecond: Number(process.env.BENCH_LIVE_RATE ?? 25),
  seconds: Number(process.env.BENCH_LIVE_SECONDS ?? (SMOKE ? 2 : QUICK ? 5 : 30)),
  subscribers: Number(process.env.BENCH_LIVE_SUBSCRIBERS ?? (SMOKE ? 20 : 200)),
};

const AUDIENCES = (process.env.BENCH_AUDIENCES ?? (SMOKE ? '50,100,200' : QUICK ? '200,1000,3000' : '1000,10000,50000'))
  .split(',')
  .map(Number);

const TARGETS = {
  /** First message of the largest topic ÷ that of the smallest. */
  firstMessageRatio: 1.5,
  /** Deliveries/s of the largest topic ÷ those of the smallest. */
  audienceRateRatio: 0.9,
  /** Deliveries/s of the 10,000 topic (the middle one) ÷ the end-to-end rate of many one-recipient triggers. */
  largeVsManyRatio: 0.7,
  writesPerDelivery: 4,
  bulkTriggerRatio: 1.5,
  endToEndFloorRatio: 0.7,
  depthRatio: 1.2,
  largestBundleKb: 300,
  initRatio: 2,
};

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * The live section, timed, with the CPU both sides used meanwhile; without sockets first (the same load to
 * subscribers that never opened one).
 */
async function liveSection(bench: Bench, dev: BenchEnv, workflow: WorkflowRef, subscribers: readonly Subscriber[]) {
  const run = async (sockets: boolean, to: readonly Subscriber[]) => {
    log(
      `live: ${LIVE.perSecond} single triggers/s for ${LIVE.seconds} s to ${LIVE.subscribers} subscribers ` +
        `${sockets ? 'with' : 'without'} an open socket`,
    );
    const cpuBefore = cpuNow();
    const result: LiveResult = await bench.timed(() =>
      liveUnderLoad(bench, dev, workflow, to, {
        perSecond: LIVE.perSecond,
        seconds: LIVE.seconds,
        consumerConcurrency: CONSUMER_CONCURRENCY,
        sockets,
      }),
    );
    const cores = coresUsed(cpuBefore, cpuNow(), result.elapsedSeconds);
    return { ...result, coresUsed: cores, cpuMsPerEvent: cpuMsPerDelivery(cores, result.events / result.elapsedSeconds) };
  };
  const quiet = await seedSubscribers(
    dev.scope,
    Array.from({ length: LIVE.subscribers }, (_, i) => `live-quiet-${i}`),
  );
  const withoutSockets = await run(false, quiet);
  return { ...(await run(true, subscribers.slice(0, LIVE.subscribers))), withoutSockets };
}

/** One trigger to each topic size, smallest first; the targets against the end-to-end rate of the same run. */
async function audienceSection(bench: Bench, dev: BenchEnv, workflow: WorkflowRef, manyTriggersPerSec: number) {
  const topics: LargeTopicResult[] = [];
  for (const members of AUDIENCES) {
    log(`large audience: one trigger to a topic of ${members.toLocaleString('en-US')}`);
    topics.push(await bench.timed(() => largeTopic(bench, dev, workflow, members, CONSUMER_CONCURRENCY)));
  }
  const smallest = topics[0]!;
  const largest = topics[topics.length - 1]!;
  const middle = topics[Math.floor(topics.length / 2)]!;
  const checks = [
    {
      target: `first message: ${largest.members / 1000}k topic ÷ ${smallest.members / 1000}k topic`,
      value: largest.firstMessageMs / smallest.firstMessageMs,
      limit: `≤ ${TARGETS.firstMessageRatio}`,
      ok: largest.firstMessageMs / smallest.firstMessageMs <= TARGETS.firstMessageRatio,
    },
    {
      target: `deliveries/s: ${largest.members / 1000}k topic ÷ ${smallest.members / 1000}k topic`,
      value: largest.deliveriesPerSec / smallest.deliveriesPerSec,
      limit: `≥ ${TARGETS.audienceRateRatio}`,
      ok: largest.deliveriesPerSec / smallest.deliveriesPerSec >= TARGETS.audienceRateRatio,
    },
    {
      target: `deliveries/s: ${middle.members / 1000}k topic ÷ many one-recipient triggers`,
      value: middle.deliveriesPerSec / manyTriggersPerSec,
      limit: `≥ ${TARGETS.largeVsManyRatio}`,
      ok: middle.deliveriesPerSec / manyTriggersPerSec >= TARGETS.largeVsManyRatio,
    },
  ];
  return { topics, manyTriggersPerSec, checks };
}

function printAudiences(a: Awaited<ReturnType<typeof audienceSection>>) {
  table(
    `3c. Large audiences (one trigger to a topic, one-step in-app; many one-recipient triggers: ${n(a.manyTriggersPerSec)} deliveries/s)`,
    [
      'members',
      'first message ms',
      'all delivered s',
      'deliveries / s',
      'DynamoDB requests (writes) / delivery',
      'SQS messages / delivery',
      'events consumer batches (records)',
    ],
    a.topics.map((t) => [
      t.members,
      t.firstMessageMs,
      t.allDeliveredMs / 1000,
      t.deliveriesPerSec,
      `${n(t.perDelivery.requests, 2)} (${n(t.perDelivery.writeRequests, 2)})`,
      n(t.sqsMessagesPerDelivery, 3),
      `${t.eventBatches} (${t.eventRecords})`,
    ]),
  );
}

async function audiencesOnly() {
  const startedAt = new Date();
  const load = [loadavg()[0]!];
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY });
  try {
    const { dev } = await benchOrganization();
    const workflow = await createInAppWorkflow(bench.api(dev.apiKey), 'comment-posted');
    const subscribers = await seedSubscribers(
      dev.scope,
      Array.from({ length: SIZES.subscribers }, (_, i) => `sub-${i}`),
    );
    // Warmed up first (this process's JIT and DynamoDB Local's), as the full run's end to end is
    // by the sections before it: a cold comparison would flatter the topics measured after it.
    await endToEnd(bench, dev, workflow, subscribers, { requests: 10, parallel: 2, consumerConcurrency: CONSUMER_CONCURRENCY });
    log(`end to end: ${SIZES.e2eRequests * 100} one-recipient events, for comparison`);
    const many = await bench.timed(() =>
      endToEnd(bench, dev, workflow, subscribers, { requests: SIZES.e2eRequests, parallel: 2, consumerConcurrency: CONSUMER_CONCURRENCY }),
    );
    const audiences = await audienceSection(bench, dev, workflow, many.deliveredPerSec);
    load.push(loadavg()[0]!);
    const results = {
      startedAt: startedAt.toISOString(),
      machine: { cpus: cpus().length, node: process.version, loadAverage1m: load.map((l) => round(l)) },
      consumerConcurrency: CONSUMER_CONCURRENCY,
      targets: audiences.checks.map((c) => ({ ...c, value: round(c.value) })),
      manyTriggers: { events: many.events, deliveredPerSec: many.deliveredPerSec, perDelivery: many.perDelivery },
      topics: audiences.topics,
    };
    writeFileSync(resultsPath('results-fanout.json'), `${JSON.stringify(results, roundNumbers, 2)}\n`);
    console.log(
      `\nLarge audiences ${results.startedAt} · ${results.machine.cpus} CPUs · load ${results.machine.loadAverage1m.join(' → ')}`,
    );
    table(
      'Targets',
      ['target', 'measured', 'target', ''],
      audiences.checks.map((c) => [c.target, c.value, c.limit, c.ok ? 'ok' : 'MISSED']),
    );
    printAudiences(audiences);
  } finally {
    await bench.stop();
  }
}

async function liveOnly() {
  const startedAt = new Date();
  const load = [loadavg()[0]!];
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY });
  try {
    const { dev } = await benchOrganization();
    const subscribers = await seedSubscribers(
      dev.scope,
      Array.from({ length: LIVE.subscribers }, (_, i) => `sub-${i}`),
    );
    const workflow = await createInAppWorkflow(bench.api(dev.apiKey), 'comment-posted');
    // What a delivery costs when its subscriber has no socket open (counted, capacity asked for).
    const withoutSockets = await seedSubscribers(
      dev.scope,
      Array.from({ length: 1_000 }, (_, i) => `quiet-${i}`),
    );
    const quiet = await endToEnd(bench, dev, workflow, withoutSockets, {
      requests: 10,
      parallel: 2,
      consumerConcurrency: CONSUMER_CONCURRENCY,
    });
    const live = await liveSection(bench, dev, workflow, subscribers);
    load.push(loadavg()[0]!);
    const noSockets = {
      perDelivery: quiet.perDelivery,
      sqsPerDelivery: quiet.sqsPerDelivery,
      consumers: quiet.consumers,
      costPerMillionEvents: costPerMillionEvents(quiet).totalUsd,
    };
    const results = {
      startedAt: startedAt.toISOString(),
      machine: { cpus: cpus().length, node: process.version, loadAverage1m: load.map((l) => round(l)) },
      noSockets,
      live,
    };
    writeFileSync(resultsPath('results-live.json'), `${JSON.stringify(results, roundNumbers, 2)}\n`);
    console.log(`\nLive ${results.startedAt} · ${results.machine.cpus} CPUs · load ${results.machine.loadAverage1m.join(' → ')}`);
    const q = noSockets;
    table(
      'One-step in-app delivery to a subscriber without an open socket (1,000 events, bulk)',
      ['measure', 'value'],
      [
        [
          'DynamoDB requests (writes) per delivery',
          `${n(q.perDelivery.requests, 2)} (${n(q.perDelivery.writeRequests, 2)}): ${Object.entries(q.perDelivery.byOperation)
            .map(([k, v]) => `${k} ${n(v, 2)}`)
            .join(', ')}`,
        ],
        [
          'SQS messages / requests per delivery',
          `${n(q.sqsPerDelivery.messages, 2)} / ` +
            `${n(q.sqsPerDelivery.sendRequests + q.sqsPerDelivery.receiveRequests + q.sqsPerDelivery.deleteRequests, 2)}`,
        ],
        [
          'consumer batches per delivery',
          Object.entries(q.consumers)
            .map(([k, c]) => `${k} ${n(c.batches / 1000, 3)}`)
            .join(', '),
        ],
        ['cost per million events (USD)', n(q.costPerMillionEvents, 2)],
      ],
    );
    printLive(live);
  } finally {
    await bench.stop();
  }
}

function printLive(l: Awaited<ReturnType<typeof liveSection>>) {
  table(
    `3b. Live updates (${n(l.targetPerSec, 0)} single triggers/s for ${l.seconds} s, ${l.subscribers} open sockets, one-step in-app)`,
    ['measure', 'value'],
    [
      ['events (sent / s as achieved)', `${l.events} (${n(l.sentPerSec)})`],
      ['trigger → message stored, p50 / p99 ms', `${n(l.storedMs.p50)} / ${n(l.storedMs.p99)}`],
      ['trigger → notification_received on the socket, p50 / p99 ms', `${n(l.receivedMs.p50)} / ${n(l.receivedMs.p99)}`],
      ['stored → received (the push), p50 / p99 ms', `${n(l.pushAfterStoreMs.p50)} / ${n(l.pushAfterStoreMs.p99)}`],
      ['frames not received', l.missing],
      ['frames per event (received, unread, unseen)', l.framesPerEvent],
      [
        'DynamoDB requests per event, delivery and push (of them writes)',
        `${n(l.perEvent.requests, 2)} (${n(l.perEvent.writeRequests, 2)})`,
      ],
      [
        'live consumer: batches, records per batch, ms per batch',
        `${l.liveConsumer.batches}, ${n(l.liveConsumer.recordsPerBatch)}, ${n(l.liveConsumer.msPerBatch)}`,
      ],
      [
        'cores used: this process / DynamoDB Local; CPU ms per event, both',
        `${n(l.coresUsed.node, 2)} / ${l.coresUsed.dynamoDbLocal === undefined ? 'n/a' : n(l.coresUsed.dynamoDbLocal, 2)}; ` +
          `${l.cpuMsPerEvent === undefined ? 'n/a' : n(l.cpuMsPerEvent)}`,
      ],
      [
        'the same load without sockets: trigger → stored p50 / p99 ms',
        `${n(l.withoutSockets.storedMs.p50)} / ${n(l.withoutSockets.storedMs.p99)}`,
      ],
      [
        '  its DynamoDB requests per event (of them writes); CPU ms per event',
        `${n(l.withoutSockets.perEvent.requests, 2)} (${n(l.withoutSockets.perEvent.writeRequests, 2)}); ` +
          `${l.withoutSockets.cpuMsPerEvent === undefined ? 'n/a' : n(l.withoutSockets.cpuMsPerEvent)}`,
      ],
    ],
  );
}

function printRateLimit(r: RateLimitResult) {
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

async function authOnly() {
  const startedAt = new Date();
  const load = [loadavg()[0]!];
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY });
  try {
    const { dev } = await benchOrganization();
    const calls = Number(process.env.BENCH_AUTH_CALLS ?? 500);
    const auth = await measureAuth(bench, dev, calls);
    const rateLimit = await measureRateLimit(bench, dev, calls);
    load.push(loadavg()[0]!);
    const results = {
      startedAt: startedAt.toISOString(),
      machine: { cpus: cpus().length, node: process.version, loadAverage1m: load.map((l) => round(l)) },
      auth,
      rateLimit,
    };
    writeFileSync(resultsPath('results-auth.json'), `${JSON.stringify(results, roundNumbers, 2)}\n`);
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
  } finally {
    await bench.stop();
  }
}

async function longWaitSection(bench: Bench, dev: BenchEnv): Promise<LongWaitResult> {
  log(`long waits: ${SIZES.longWaits} 30-day delays, and as many scheduled delays through their wake`);
  const waiting = await seedSubscribers(
    dev.scope,
    Array.from({ length: SIZES.longWaits }, (_, i) => `waiting-${i}`),
  );
  return longWaits(
    bench,
    dev,
    waiting.map((s) => s.subscriberId),
  );
}

/** The cost of a 30-day delay alone (bench/results-waits.json). */
async function waitsOnly() {
  const startedAt = new Date();
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY, longWaitSeconds: BENCH_LONG_WAIT_SECONDS });
  try {
    const { dev } = await benchOrganization();
    const waits = await longWaitSection(bench, dev);
    writeFileSync(
      resultsPath('results-waits.json'),
      `${JSON.stringify({ startedAt: startedAt.toISOString(), longWaits: waits }, roundNumbers, 2)}\n`,
    );
    printLongWaits(waits);
  } finally {
    await bench.stop();
  }
}

function printLongWaits(w: LongWaitResult) {
  const ops = (c: Cost) =>
    Object.entries(c.byOperation)
      .map(([k, v]) => `${k} ${n(v, 2)}`)
      .join(', ');
  const row = (what: string, p: LongWaitResult['thirtyDaysUntilScheduled']) => [
    what,
    p.jobsConsumerRuns,
    p.schedulesCreated,
    p.wakesFired,
    p.sqsMessagesSent,
    p.dynamo.requests,
    ops(p.dynamo),
  ];
  table(
    `A 30-day delay (${w.delays} delays, per delay)`,
    ['part', 'jobs consumer runs', 'schedules created', 'wakes', 'SQS messages sent', 'DynamoDB requests', 'by operation'],
    [
      row('30-day delay → in-app, until its wake is scheduled', w.thirtyDaysUntilScheduled),
      row('a scheduled delay → in-app, whole life (trigger → wake → in-app)', w.scheduledDelayWholeLife),
      [
        'before: the 30-day wait alone, re-queued every 15 min',
        w.before.jobsConsumerRuns,
        0,
        '',
        w.before.sqsMessagesSent,
        w.before.consistentReads,
        `GetItem ${n(w.before.consistentReads)}`,
      ],
    ],
  );
}

async function main() {
  if (process.env.BENCH_ONLY === 'flood') return floodOnly(CONSUMER_CONCURRENCY);
  if (process.env.BENCH_ONLY === 'waits') return waitsOnly();
  if (process.env.BENCH_ONLY === 'auth') return authOnly();
  if (process.env.BENCH_ONLY === 'live') return liveOnly();
  if (process.env.BENCH_ONLY === 'fanout') return audiencesOnly();
  if (process.env.BENCH_ONLY === 'costs') return addedCostsOnly();
  const startedAt = new Date();
  const load = [loadavg()[0]!];

  log('bundles: building every function and timing its module init');
  const bundles: BundlesResult = await measureBundles({ runs: SIZES.initRuns });

  log('starting the local stack');
  let measured: { results: Record<string, unknown> & { targets: unknown }; checks: Check[] };
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY, longWaitSeconds: BENCH_LONG_WAIT_SECONDS });
  try {
    log('floor: raw DynamoDB Local writes');
    const floor = await measureFloor(
      SMOKE
        ? { itemBytes: 700, puts: 100, concurrentPuts: 200, batches: 10 }
        : { itemBytes: 700, puts: 1_000, concurrentPuts: 4_000, batches: 200 },
    );

    log('seeding: organization, subscribers, workflow, subscriptions, notifications');
    const { dev, prod } = await benchOrganization();
    const devCall = bench.api(dev.apiKey);
    const subscribers = await seedSubscribers(
      dev.scope,
      Array.from({ length: SIZES.subscribers }, (_, i) => `sub-${i}`),
    );
    const prodSubscribers = await seedSubscribers(
      prod.scope,
      Array.from({ length: 100 }, (_, i) => `sub-${i}`),
    );
    const workflow = await createInAppWorkflow(devCall, 'comment-posted');
    const synced = await expectStatus(
      devCall('PUT', `/v2/workflows/${workflow.workflowId}/sync`, { targetEnvironmentId: prod.id }),
      200,
      'sync',
    );
    const prodWorkflow = {
      _id: synced.body._id,
      workflowId: workflow.workflowId,
      stepDbId: synced.body.steps[0]._id,
      stepId: synced.body.steps[0].stepId,
    };
    await seedSubscriptions(dev.scope, subscribers[0]!, SIZES.subscriptions);
    await seedNotifications(dev.scope, { count: SIZES.notifications, days: 10, subscribers, workflow });
    await seedNotifications(prod.scope, { count: SMALL_ENVIRONMENT, days: 10, subscribers: prodSubscribers, workflow: prodWorkflow });

    log('bulk trigger: handler time vs raw BatchWriteItem');
    const bulk = await bulkTrigger(bench, dev, workflow, subscribers, floor.batchWriteMs, SIZES.bulkRequests);
    await bench.setConsumerConcurrency(CONSUMER_CONCURRENCY);
    await bench.idle(600_000);

    log(`end to end: ${SIZES.e2eRequests * 100} events, ${CONSUMER_CONCURRENCY} batches per consumer at once`);
    // What a delivery costs, counted on a run of its own (capacity asked for); then the timed run.
    const counted = await endToEnd(bench, dev, workflow, subscribers, {
      requests: 5,
      parallel: 2,
      consumerConcurrency: CONSUMER_CONCURRENCY,
    });
    const putsBefore = await putRateNow({ itemBytes: 700, puts: SMOKE ? 200 : 2_000 });
    const cpuBefore = cpuNow();
    const timedE2e = await bench.timed(() =>
      endToEnd(bench, dev, workflow, subscribers, { requests: SIZES.e2eRequests, parallel: 2, consumerConcurrency: CONSUMER_CONCURRENCY }),
    );
    const e2eCores = coresUsed(cpuBefore, cpuNow(), timedE2e.seconds);
    const e2e = { ...timedE2e, perDelivery: counted.perDelivery };
    const putsAfter = await putRateNow({ itemBytes: 700, puts: SMOKE ? 200 : 2_000 });
    // The floor of this section: PutItem measured right before and right after it (mean).
    const sectionPutsPerSec = (putsBefore + putsAfter) / 2;
    // Request counts are exact in the timed run too.
    const writesPerDelivery = timedE2e.perDelivery.writeRequests;
    const floorDeliveriesPerSec = sectionPutsPerSec / writesPerDelivery;
    // Not a target: the same writes with nothing around them, to split the ratio's shortfall
    // between what the items cost DynamoDB Local and what the pipeline adds.
    const writesAlonePerSec = await replayDeliveryWrites(await sampleDeliveryWrites(dev), {
      deliveries: SIZES.replayDeliveries,
      subscribers: SIZES.subscribers,
    });

    const live = await liveSection(bench, dev, workflow, subscribers);
    const audiences = await audienceSection(bench, dev, workflow, e2e.deliveredPerSec);

    log('digest of 10 events');
    const digest = await digestOfTen(bench, dev, subscribers.slice(100), SIZES.digests, CONSUMER_CONCURRENCY);
    const waits = await longWaitSection(bench, dev);

    log('the ten endpoints: requests per call and latency');
    const integrations = await expectStatus(devCall('GET', '/v1/integrations'), 200, 'integrations');
    const inApp = integrations.body.find(
      (i: { channel: string; _environmentId: string }) => i.channel === 'in_app' && i._environmentId === dev.id,
    );
    await expectStatus(
      devCall('POST', '/v1/integrations', { providerId: 'discord', channel: 'chat', active: true }),
      201,
      'discord integration',
    );
    const inbox = await expectStatus(devCall('GET', '/v1/messages?subscriberId=sub-5&limit=10'), 200, 'messages');
    const messageIds: string[] = inbox.body.data.map((m: { _id: string }) => m._id);
    const ids = subscribers.slice(200, 300).map((s) => s.subscriberId);
    const cases: EndpointCase[] = [
      {
        operationId: 'listIntegrations',
        route: 'GET /v1/integrations',
        status: 200,
        calls: SIZES.calls,
        call: () => devCall('GET', '/v1/integrations'),
      },
      {
        operationId: 'updateIntegration',
        route: 'PUT /v1/integrations/{id}',
        status: 200,
        calls: SIZES.calls,
        call: (i) => devCall('PUT', `/v1/integrations/${inApp._id}`, { name: `In-App ${i}` }),
      },
      {
        operationId: 'updateSubscriberCredentials',
        route: 'PUT /v1/subscribers/{id}/credentials',
        status: 200,
        calls: SIZES.calls,
        call: (i) =>
          devCall('PUT', '/v1/subscribers/sub-1/credentials', {
            providerId: 'discord',
            credentials: { webhookUrl: `https://discord.example/hook/${i}` },
          }),
      },
      {
        operationId: 'patchSubscriber',
        route: 'PATCH /v2/subscribers/{id}',
        status: 200,
        calls: SIZES.calls,
        call: (i) => devCall('PATCH', '/v2/subscribers/sub-2', { firstName: `Ada ${i}` }),
      },
      {
        operationId: 'listSubscriberSubscriptions',
        route: 'GET /v2/subscribers/{id}/subscriptions',
        status: 200,
        calls: SIZES.calls,
        call: () => devCall('GET', '/v2/subscribers/sub-0/subscriptions?limit=10'),
      },
      {
        operationId: 'markMessagesAs',
        route: 'POST /v1/subscribers/{id}/messages/mark-as',
        status: 201,
        calls: SIZES.calls,
        call: (i) =>
          devCall('POST', '/v1/subscribers/sub-5/messages/mark-as', { messageId: messageIds, markAs: i % 2 === 0 ? 'read' : 'unread' }),
      },
      {
        operationId: 'getSubscriberPreferences',
        route: 'GET /v2/subscribers/{id}/preferences',
        status: 200,
        calls: SIZES.calls,
        call: () => devCall('GET', '/v2/subscribers/sub-3/preferences'),
      },
      {
        operationId: 'syncWorkflow',
        route: 'PUT /v2/workflows/{id}/sync',
        status: 200,
        calls: SIZES.calls,
        call: () => devCall('PUT', `/v2/workflows/${workflow.workflowId}/sync`, { targetEnvironmentId: prod.id }),
      },
      {
        operationId: 'triggerBulk',
        route: 'POST /v1/events/trigger/bulk (100 events)',
        status: 201,
        calls: SIZES.bulkCalls,
        call: (i) =>
          devCall('POST', '/v1/events/trigger/bulk', {
            events: ids.map((to, j) => ({ name: workflow.workflowId, to, payload: { author: 'Bob', comment: `latency ${i}-${j}` } })),
          }),
      },
      {
        operationId: 'listNotifications',
        route: 'GET /v1/notifications',
        status: 200,
        calls: SIZES.calls,
        call: () => devCall('GET', '/v1/notifications?limit=10'),
      },
    ];
    const endpoints = await measureEndpoints(bench, cases);
    log('the API rate-limit check');
    const rateLimit = await measureRateLimit(bench, dev, SIZES.calls);
    await bench.setConsumerConcurrency(CONSUMER_CONCURRENCY);
    await bench.idle(600_000);

    log('depth: subscriptions by cursor, activity feed by environment size');
    let cursor: string | undefined;
    for (let seen = 0; seen < 1_000; seen += 100) {
      const page = await expectStatus(
        devCall('GET', `/v2/subscribers/sub-0/subscriptions?limit=100${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`),
        200,
        'subscriptions',
      );
      cursor = page.body.next;
    }
    const subscriptionsDepth = await compareDepth(
      bench,
      'subscriptions page (limit 10)',
      { label: 'page 1', call: () => devCall('GET', '/v2/subscribers/sub-0/subscriptions?limit=10') },
      {
        label: '1,000 items deep (cursor)',
        call: () => devCall('GET', `/v2/subscribers/sub-0/subscriptions?limit=10&after=${encodeURIComponent(cursor!)}`),
      },
      SIZES.depthSamples,
    );
    const prodCall = bench.api(prod.apiKey);
    const activityDepth = await compareDepth(
      bench,
      'activity feed page 1 (limit 10)',
      { label: `${SMALL_ENVIRONMENT.toLocaleString('en-US')} notifications`, call: () => prodCall('GET', '/v1/notifications?limit=10') },
      { label: `${SIZES.notifications.toLocaleString('en-US')}+ notifications`, call: () => devCall('GET', '/v1/notifications?limit=10') },
      SIZES.depthSamples,
    );
    // For the record, not a target: offset paging costs more with depth by nature.
    const activityDeepPage = await compareDepth(
      bench,
      'activity feed by page number (limit 10)',
      { label: 'page 0', call: () => devCall('GET', '/v1/notifications?limit=10&page=0') },
      { label: 'page 100 (1,000 deep)', call: () => devCall('GET', '/v1/notifications?limit=10&page=100') },
      Math.min(10, SIZES.depthSamples),
    );

    log('depth: an inbox of 10 messages and one of 10,000');
    const [inboxSmall, inboxLarge, inboxCapped] = await seedSubscribers(dev.scope, ['inbox-small', 'inbox-large', 'inbox-capped']);
    await seedInbox(dev, inboxSmall!, 10, 10);
    await seedInbox(dev, inboxLarge!, SIZES.inboxLarge, 10);
    await seedInbox(dev, inboxCapped!, SIZES.inboxLarge, Math.min(1_000, SIZES.inboxLarge));
    const inboxResult = await inboxDepth(bench, dev, { small: inboxSmall!, large: inboxLarge!, capped: inboxCapped! }, SIZES.depthSamples);
    const inboxDepths = inboxResult.compared;

    const cost = costPerMillionEvents(e2e);
    load.push(loadavg()[0]!);

    const helloInit = bundles.helloWorld.initMs;
    const within = (ok: (f: BundlesResult['functions'][number]) => boolean) =>
      `${bundles.functions.filter(ok).length} of ${bundles.functions.length} within`;
    const bundlesWithin = within((f) => f.bytes / 1024 <= TARGETS.largestBundleKb);
    const initsWithin = within((f) => f.initMs / helloInit <= TARGETS.initRatio);
    const checks = [
      {
        target: 'writes per one-step in-app delivery',
        value: writesPerDelivery,
        limit: `≤ ${TARGETS.writesPerDelivery}`,
        ok: writesPerDelivery <= TARGETS.writesPerDelivery,
      },
      {
        target: 'bulk trigger ÷ raw BatchWriteItem (100 items)',
        value: bulk.ratio,
        limit: `≤ ${TARGETS.bulkTriggerRatio}`,
        ok: bulk.ratio <= TARGETS.bulkTriggerRatio,
      },
      {
        target: 'end to end ÷ (floor ÷ writes per delivery)',
        value: e2e.deliveredPerSec / floorDeliveriesPerSec,
        limit: `≥ ${TARGETS.endToEndFloorRatio}`,
        ok: e2e.deliveredPerSec / floorDeliveriesPerSec >= TARGETS.endToEndFloorRatio,
      },
      {
        target: 'subscriptions: 1,000 deep ÷ page 1',
        value: subscriptionsDepth.ratio,
        limit: `≤ ${TARGETS.depthRatio}`,
        ok: subscriptionsDepth.ratio <= TARGETS.depthRatio,
      },
      {
        target: `activity page 1: ${SIZES.notifications / 1000}k ÷ 1k notifications`,
        value: activityDepth.ratio,
        limit: `≤ ${TARGETS.depthRatio}`,
        ok: activityDepth.ratio <= TARGETS.depthRatio,
      },
      ...audiences.checks,
      ...inboxDepths.map((d) => ({
        target: `${d.what}: ${d.deep.label} ÷ ${d.shallow.label}`,
        value: d.ratio,
        limit: `≤ ${TARGETS.depthRatio}`,
        ok: d.ratio <= TARGETS.depthRatio,
      })),
      {
        target: `largest bundle (KB): ${bundles.largest.name}; ${bundlesWithin}`,
        value: bundles.largest.bytes / 1024,
        limit: `≤ ${TARGETS.largestBundleKb}`,
        ok: bundles.largest.bytes / 1024 <= TARGETS.largestBundleKb,
      },
      {
        target: `slowest init ÷ hello world: ${bundles.slowest.name}; ${initsWithin}`,
        value: bundles.slowest.initMs / helloInit,
        limit: `≤ ${TARGETS.initRatio}`,
        ok: bundles.slowest.initMs / helloInit <= TARGETS.initRatio,
      },
    ];

    const results = {
      startedAt: startedAt.toISOString(),
      machine: { cpus: cpus().length, node: process.version, loadAverage1m: load.map((l) => round(l)) },
      quick: QUICK,
      sizes: SIZES,
      targets: checks.map((c) => ({ ...c, value: round(c.value) })),
      floor: {
        itemBytes: floor.itemBytes,
        putItemPerSec: { sequential: round(floor.putSequentialPerSec, 0), concurrent32: round(floor.putConcurrent32PerSec, 0) },
        batchWriteItemsPerSec: {
          sequential: round(floor.batchWriteSequentialItemsPerSec, 0),
          concurrent32: round(floor.batchWriteConcurrent32ItemsPerSec, 0),
        },
      },
      bulkTrigger: bulk,
      endToEnd: {
        ...e2e,
        coresUsed: e2eCores,
        cpuMsPerDelivery: cpuMsPerDelivery(e2eCores, e2e.deliveredPerSec),
        floorPutItemPerSec: { before: putsBefore, after: putsAfter, mean: sectionPutsPerSec },
        floorDeliveriesPerSec,
        floorRatio: e2e.deliveredPerSec / floorDeliveriesPerSec,
        writesAlone: {
          deliveriesPerSec: writesAlonePerSec,
          floorRatio: writesAlonePerSec / floorDeliveriesPerSec,
          endToEndShare: e2e.deliveredPerSec / writesAlonePerSec,
        },
      },
      live,
      audiences: { topics: audiences.topics, manyTriggersPerSec: audiences.manyTriggersPerSec },
      digest,
      longWaits: waits,
      endpoints,
      rateLimit,
      depth: [subscriptionsDepth, activityDepth, activityDeepPage, ...inboxDepths, inboxResult.atCap],
      bundles,
      costPerMillionEvents: cost,
    };
    measured = { results, checks };
  } finally {
    await bench.stop();
  }
  // Its variants start stacks of their own: after this one has stopped, so they do not share the CPU with it.
  const addedCosts = await addedCostsSection();
  const checks = [...measured.checks, ...addedCostChecks(addedCosts)];
  const results = { ...measured.results, targets: checks.map((c) => ({ ...c, value: round(c.value) })), addedCosts };
  writeFileSync(resultsPath('results.json'), `${JSON.stringify(results, roundNumbers, 2)}\n`);
  printTable(results, checks);
  printAddedCosts(addedCosts);
  console.log(`\nWritten to ${resultsPath('results.json')}\n`);
}

function addedCostsSection(): Promise<AddedCostsResult> {
  return measureAddedCosts({
    // Per variant, in hundreds (bulk requests of 100).
    events: Math.max(100, Math.round(Number(process.env.BENCH_ADDED_COST_EVENTS ?? SIZES.addedCostEvents) / 100) * 100),
    subscribers: Math.min(SIZES.subscribers, 200),
    consumerConcurrency: CONSUMER_CONCURRENCY,
    log,
  });
}

/** Where a one-recipient delivery's time goes, and the targets of issue 35 items 3 and 6 (bench/results-costs.json). */
async function addedCostsOnly() {
  const startedAt = new Date();
  const load = [loadavg()[0]!];
  const addedCosts = await addedCostsSection();
  load.push(loadavg()[0]!);
  const results = {
    startedAt: startedAt.toISOString(),
    machine: { cpus: cpus().length, node: process.version, loadAverage1m: load.map((l) => round(l)) },
    targets: addedCostChecks(addedCosts).map((c) => ({ ...c, value: round(c.value) })),
    addedCosts,
  };
  writeFileSync(resultsPath('results-costs.json'), `${JSON.stringify(results, roundNumbers, 2)}\n`);
  console.log(`\nAdded costs ${results.startedAt} · ${results.machine.cpus} CPUs · load ${results.machine.loadAverage1m.join(' → ')}`);
  printAddedCosts(addedCosts);
}

function roundNumbers(_key: string, value: unknown) {
  return typeof value === 'number' && !Number.isInteger(value) ? round(value, 3) : value;
}

function printTable(r: any, checks: { target: string; value: number; limit: string; ok: boolean }[]) {
  console.log(
    `\nBenchmark ${r.startedAt} · ${r.machine.cpus} CPUs · Node ${r.machine.node} · ` +
      `load ${r.machine.loadAverage1m.join(' → ')}${r.quick ? ' · QUICK' : ''}`,
  );
  table(
    'Targets',
    ['target', 'measured', 'target', ''],
    checks.map((c) => [c.target, c.value, c.limit, c.ok ? 'ok' : 'MISSED']),
  );
  table(
    '1. Floor (DynamoDB Local, this machine)',
    ['operation', 'sequential', '32 at once'],
    [
      ['PutItem / s', r.floor.putItemPerSec.sequential, r.floor.putItemPerSec.concurrent32],
      ['BatchWriteItem items / s', r.floor.batchWriteItemsPerSec.sequential, r.floor.batchWriteItemsPerSec.concurrent32],
    ],
  );
  const b = r.bulkTrigger;
  table(
    '2. Bulk trigger (100 events, one-step in-app)',
    ['measure', 'value'],
    [
      ['handler p50 / p99 ms', `${n(b.handlerMs.p50)} / ${n(b.handlerMs.p99)}`],
      [
        'raw BatchWriteItem of 100 items ms (4 in a row / 4 at once)',
        `${n(b.rawBatchWriteMs.sequential)} / ${n(b.rawBatchWriteMs.concurrent)}`,
      ],
      ['ratio (handler p50 ÷ 4 in a row)', b.ratio],
      [
        'DynamoDB requests per call',
        `${n(b.perRequest.requests)} (${Object.entries(b.perRequest.byOperation)
          .map(([k, v]) => `${k} ${n(v as number)}`)
          .join(', ')})`,
      ],
    ],
  );
  const e = r.endToEnd;
  table(
    '3. End to end (one-step in-app, bulk requests of 100)',
    ['measure', 'value'],
    [
      ['events', e.events],
      ['accepted / s', e.acceptedPerSec],
      ['delivered / s (until every message exists)', e.deliveredPerSec],
      ['floor PutItem / s, 32 at once, right before / after', `${n(e.floorPutItemPerSec.before, 0)} / ${n(e.floorPutItemPerSec.after, 0)}`],
      ['floor deliveries / s (their mean ÷ writes per delivery)', e.floorDeliveriesPerSec],
      ['ratio', e.floorRatio],
      // The bound any pipeline writing these items has, and how much of it this one reaches.
      ['the same writes alone (its real items replayed, 32 at once): deliveries / s', e.writesAlone.deliveriesPerSec],
      ['their ratio to the floor deliveries (the most the items leave)', e.writesAlone.floorRatio],
      ['end to end ÷ the writes alone', e.writesAlone.endToEndShare],
      ['consumer batches at once', e.consumerConcurrency],
      [
        'cores used: this process (handlers, consumers, fauxqs) / DynamoDB Local',
        `${n(e.coresUsed.node, 2)} / ${e.coresUsed.dynamoDbLocal === undefined ? 'n/a' : n(e.coresUsed.dynamoDbLocal, 2)}`,
      ],
      // What a delivery costs the machine whatever its number of writes (the ratio divides by them).
      ['CPU ms per delivery, this process + DynamoDB Local', e.cpuMsPerDelivery === undefined ? 'n/a' : n(e.cpuMsPerDelivery, 1)],
    ],
  );
  printLive(r.live);
  printLongWaits(r.longWaits);
  printAudiences({ ...r.audiences, checks: [] });
  table(
    '4. DynamoDB per operation (counted by the SDK middleware)',
    ['operation', 'requests', 'writes', 'RCU', 'WCU', 'by operation'],
    [
      ...[
        ['one-step in-app delivery', e.perDelivery],
        ['digest of 10 events (+ in-app)', r.digest.perDigest],
      ].map(([name, c]) => [
        name,
        c.requests,
        c.writeRequests,
        c.readUnits,
        c.writeUnits,
        Object.entries(c.byOperation)
          .map(([k, v]) => `${k} ${n(v as number, 2)}`)
          .join(', '),
      ]),
      ...r.endpoints.map(
        (x: {
          route: string;
          perCall: { requests: number; writeRequests: number; readUnits: number; writeUnits: number; byOperation: Record<string, number> };
        }) => [
          x.route,
          x.perCall.requests,
          x.perCall.writeRequests,
          x.perCall.readUnits,
          x.perCall.writeUnits,
          Object.entries(x.perCall.byOperation)
            .map(([k, v]) => `${k} ${n(v, 2)}`)
            .join(', '),
        ],
      ),
    ],
  );
  table(
    '5. Depth',
    ['compared', 'shallow p50 ms', 'deep p50 ms', 'shallow RCU', 'deep RCU', 'ratio'],
    r.depth.map((d: any) => [
      `${d.what}: ${d.shallow.label} vs ${d.deep.label}`,
      d.shallow.p50Ms,
      d.deep.p50Ms,
      d.shallow.readUnits,
      d.deep.readUnits,
      d.ratio,
    ]),
  );
  const bundles = [...r.bundles.functions].sort((x: any, y: any) => y.bytes - x.bytes);
  const hello = r.bundles.helloWorld;
  const sdkHello = r.bundles.sdkHelloWorld;
  table(
    `6. Bundles (minified; hello world ${n(hello.bytes / 1024)} KB, init ${n(hello.initMs)} ms; ` +
      `hello world + DynamoDB document client ${n(sdkHello.bytes / 1024)} KB, init ${n(sdkHello.initMs)} ms)`,
    ['function', 'KB', 'init ms', '÷ hello', '÷ SDK hello', 'largest parts (KB)'],
    bundles.map((f: any) => [
      f.name,
      f.bytes / 1024,
      f.initMs,
      f.initMs / hello.initMs,
      f.initMs / sdkHello.initMs,
      Object.entries(f.largest)
        .slice(0, 4)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ]),
  );
  table(
    '7. Latency per endpoint (handler time, realistic data)',
    ['endpoint', 'calls', 'p50 ms', 'p99 ms'],
    r.endpoints.map((x: any) => [x.route, x.calls, x.p50Ms, x.p99Ms]),
  );
  printRateLimit(r.rateLimit);
  table(
    'Cost per million triggered events (one subscriber, one in-app step)',
    ['item', 'for 1 M events', 'USD'],
    [
      ...r.costPerMillionEvents.rows.map((c: any) => [c.item, c.perMillionEvents, `$${c.usd.toFixed(2)}`]),
      ['total', '', `$${r.costPerMillionEvents.totalUsd.toFixed(2)}`],
    ],
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
