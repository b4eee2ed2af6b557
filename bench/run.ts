import './env.ts';
import { cpus } from 'node:os';
import type { DigestResult, EndpointResult, DepthResult } from './scenarios.ts';
import { addedCostsOnly, addedCostsSection, type AddedCostsResult } from './added-costs.ts';
import { addedCostChecks, printAddedCosts } from './added-costs-report.ts';
import { authOnly, authSection } from './auth.ts';
import { bulkTrigger, printBulkTrigger, type BulkTriggerResult } from './bulk-trigger.ts';
import { bundleChecks, measureBundles, printBundles, type BundlesResult } from './bundles.ts';
import { costPerMillionEvents, printCost, type CostResult } from './cost.ts';
import { depthList, depthSection, printDepth } from './depth.ts';
import { endpointsSection, printLatency, printRequests } from './endpoints.ts';
import { endToEndSection, printEndToEnd, type EndToEndSection } from './end-to-end.ts';
import { floodOnly, floodSection } from './flood.ts';
import { floorResult, measureFloor, printFloor, type FloorResult } from './floor.ts';
import { startBench } from './harness.ts';
import { audienceSection, audiencesOnly, printAudiences } from './large-audiences.ts';
import { liveOnly, liveSection, printLive, type LiveSectionResult } from './live-updates.ts';
import { BENCH_LONG_WAIT_SECONDS, longWaitSection, printLongWaits, waitsOnly, type LongWaitResult } from './long-waits.ts';
import type { LargeTopicResult } from './fan-out.ts';
import { measureRateLimit, printRateLimit, type RateLimitResult } from './rate-limit.ts';
import { loadNow, machineOf, resultsPath, SMOKE, writeResults, type Machine } from './results-path.ts';
import { createInAppWorkflow, digestOfTen, expectStatus } from './scenarios.ts';
import { benchOrganization, seedNotifications, seedSubscribers, seedSubscriptions } from './seed.ts';
import { CONSUMER_CONCURRENCY, log, QUICK, SEEDED_ACTIVITY_DAYS, SIZES, SMALL_ENVIRONMENT, TARGETS, type Sizes } from './settings.ts';
import { round } from './stats.ts';
import { table, type Check } from './table.ts';

// `npm run bench`: speed, cost and scale of the service on the local stack, against the floor of
// this machine (issue 8). Prints a table and writes bench/results.json. Not a test: numbers vary
// with the machine and its load, so the targets are checked here and reported, never asserted.
// Each section is a module of its own (named for what it measures); this file composes them.
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
// events per variant (3,000). BENCH_SMOKE=1 runs every section at its smallest (the load tests'
// smoke run, test/load/bench.test.ts), the authentication and flood sections inside the whole
// run's stack (writing results-auth.json and results-flood.json as their modes do);
// BENCH_RESULTS_DIR writes the results elsewhere than bench/.

/** bench/results.json. */
interface Results {
  startedAt: string;
  machine: Machine;
  quick: boolean;
  sizes: Sizes;
  targets: Check[];
  floor: FloorResult;
  bulkTrigger: BulkTriggerResult;
  endToEnd: EndToEndSection;
  live: LiveSectionResult;
  audiences: { topics: LargeTopicResult[]; manyTriggersPerSec: number };
  digest: DigestResult;
  longWaits: LongWaitResult;
  endpoints: EndpointResult[];
  rateLimit: RateLimitResult;
  depth: DepthResult[];
  bundles: BundlesResult;
  costPerMillionEvents: CostResult;
  addedCosts?: AddedCostsResult;
}

async function main() {
  if (process.env.BENCH_ONLY === 'flood') return floodOnly();
  if (process.env.BENCH_ONLY === 'waits') return waitsOnly();
  if (process.env.BENCH_ONLY === 'auth') return authOnly();
  if (process.env.BENCH_ONLY === 'live') return liveOnly();
  if (process.env.BENCH_ONLY === 'fanout') return audiencesOnly();
  if (process.env.BENCH_ONLY === 'costs') return addedCostsOnly();
  const startedAt = new Date();
  const load = [loadNow()];

  log('bundles: building every function and timing its module init');
  const bundles: BundlesResult = await measureBundles({
    runs: SIZES.initRuns,
    timed: SIZES.timedInits,
    // The smoke run times each init once (of a dozen bundles), the baselines once, a process per core at once.
    ...(SMOKE && { baselineEvery: Infinity, concurrency: cpus().length }),
  });

  log('starting the local stack');
  let measured: { results: Results; checks: Check[] };
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY, longWaitSeconds: BENCH_LONG_WAIT_SECONDS });
  try {
    log('floor: raw DynamoDB Local writes');
    const floor = await measureFloor(
      SMOKE
        ? { itemBytes: 700, puts: 100, concurrentPuts: 200, batches: 10, batchWriteRuns: 5 }
        : { itemBytes: 700, puts: 1_000, concurrentPuts: 4_000, batches: 200 },
    );

    log('seeding: organization, subscribers, workflow, subscriptions, notifications');
    // Older than the days of notifications seeded below: the feed lists nothing from before its environment was made.
    const { dev, prod } = await benchOrganization({ madeDaysAgo: SEEDED_ACTIVITY_DAYS + 1 });
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
    const syncedBody = synced.body as { _id: string; steps: { _id: string; stepId: string }[] };
    const prodWorkflow = {
      _id: syncedBody._id,
      workflowId: workflow.workflowId,
      stepDbId: syncedBody.steps[0]!._id,
      stepId: syncedBody.steps[0]!.stepId,
    };
    await seedSubscriptions(dev.scope, subscribers[0]!, SIZES.subscriptions);
    await seedNotifications(dev.scope, { count: SIZES.notifications, days: SEEDED_ACTIVITY_DAYS, subscribers, workflow });
    await seedNotifications(prod.scope, {
      count: SMALL_ENVIRONMENT,
      days: SEEDED_ACTIVITY_DAYS,
      subscribers: prodSubscribers,
      workflow: prodWorkflow,
    });

    log('bulk trigger: handler time vs raw BatchWriteItem');
    const bulk = await bulkTrigger(bench, dev, workflow, subscribers, floor.batchWriteMs, SIZES.bulkRequests);
    await bench.setConsumerConcurrency(CONSUMER_CONCURRENCY);
    await bench.idle(600_000);

    const { endToEnd: e2e, writesPerDelivery } = await endToEndSection(bench, dev, workflow, subscribers);

    const live = await liveSection(bench, dev, workflow, subscribers);
    const audiences = await audienceSection(bench, dev, workflow, e2e.deliveredPerSec);

    log('digest of 10 events');
    const digest = await digestOfTen(bench, dev, subscribers.slice(100), SIZES.digests, CONSUMER_CONCURRENCY);
    const waits = await longWaitSection(bench, dev);

    const endpoints = await endpointsSection(bench, dev, prod, workflow, subscribers);
    log('the API rate-limit check');
    const rateLimit = await measureRateLimit(bench, dev, SIZES.calls);
    await bench.setConsumerConcurrency(CONSUMER_CONCURRENCY);
    await bench.idle(600_000);

    const depth = await depthSection(bench, dev, prod);

    const cost = costPerMillionEvents(e2e);
    load.push(loadNow());

    const checks: Check[] = [
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
        value: e2e.floorRatio,
        limit: `≥ ${TARGETS.endToEndFloorRatio}`,
        ok: e2e.floorRatio >= TARGETS.endToEndFloorRatio,
      },
      {
        target: 'subscriptions: 1,000 deep ÷ page 1',
        value: depth.subscriptions.ratio,
        limit: `≤ ${TARGETS.depthRatio}`,
        ok: depth.subscriptions.ratio <= TARGETS.depthRatio,
      },
      {
        target: `activity page 1: ${SIZES.notifications / 1000}k ÷ 1k notifications`,
        value: depth.activity.ratio,
        limit: `≤ ${TARGETS.depthRatio}`,
        ok: depth.activity.ratio <= TARGETS.depthRatio,
      },
      ...audiences.checks,
      ...depth.inbox.map((d) => ({
        target: `${d.what}: ${d.deep.label} ÷ ${d.shallow.label}`,
        value: d.ratio,
        limit: `≤ ${TARGETS.depthRatio}`,
        ok: d.ratio <= TARGETS.depthRatio,
      })),
      ...bundleChecks(bundles),
    ];

    const results: Results = {
      startedAt: startedAt.toISOString(),
      machine: machineOf(load),
      quick: QUICK,
      sizes: SIZES,
      targets: checks.map((c) => ({ ...c, value: round(c.value) })),
      floor: floorResult(floor),
      bulkTrigger: bulk,
      endToEnd: e2e,
      live,
      audiences: { topics: audiences.topics, manyTriggersPerSec: audiences.manyTriggersPerSec },
      digest,
      longWaits: waits,
      endpoints,
      rateLimit,
      depth: depthList(depth),
      bundles,
      costPerMillionEvents: cost,
    };
    measured = { results, checks };

    // The smoke run: the sections only a mode of their own runs otherwise, on this stack (each
    // for an organization of its own), so one process and one stack exercise every section.
    if (SMOKE) {
      log('authentication (smoke: a section of the whole run)');
      await authSection(bench);
      log('flood (smoke: a section of the whole run)');
      // Its quiet triggers are delivered by running consumers (the sections before paused them).
      await bench.setConsumerConcurrency(CONSUMER_CONCURRENCY);
      await floodSection(bench);
    }
  } finally {
    await bench.stop();
  }
  // Its variants start stacks of their own: after this one has stopped, so they do not share the CPU with it.
  const addedCosts = await addedCostsSection();
  const checks = [...measured.checks, ...addedCostChecks(addedCosts)];
  const results: Results = { ...measured.results, targets: checks.map((c) => ({ ...c, value: round(c.value) })), addedCosts };
  writeResults('results.json', results);
  printResults(results, checks);
  printAddedCosts(addedCosts);
  console.log(`\nWritten to ${resultsPath('results.json')}\n`);
}

function printResults(r: Results, checks: readonly Check[]) {
  console.log(
    `\nBenchmark ${r.startedAt} · ${r.machine.cpus} CPUs · Node ${r.machine.node} · ` +
      `load ${r.machine.loadAverage1m.join(' → ')}${r.quick ? ' · QUICK' : ''}`,
  );
  table(
    'Targets',
    ['target', 'measured', 'target', ''],
    checks.map((c) => [c.target, c.value, c.limit, c.ok ? 'ok' : 'MISSED']),
  );
  printFloor(r.floor);
  printBulkTrigger(r.bulkTrigger);
  printEndToEnd(r.endToEnd);
  printLive(r.live);
  printLongWaits(r.longWaits);
  printAudiences(r.audiences);
  printRequests(r.endToEnd.perDelivery, r.digest.perDigest, r.endpoints);
  printDepth(r.depth);
  printBundles(r.bundles);
  printLatency(r.endpoints);
  printRateLimit(r.rateLimit);
  printCost(r.costPerMillionEvents);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
