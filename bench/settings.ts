import { SMOKE } from './results-path.ts';

// The bench's sizes, rates and targets, by mode: BENCH_SMOKE=1 (the load tests' smoke run),
// BENCH_QUICK=1 (smaller data sets), or the full run; and its progress log.

export const QUICK = process.env.BENCH_QUICK === '1';
/** Batches each consumer handles at once (BENCH_CONSUMER_CONCURRENCY, default 8). */
export const CONSUMER_CONCURRENCY = Number(process.env.BENCH_CONSUMER_CONCURRENCY ?? 8);

export interface Sizes {
  subscribers: number;
  subscriptions: number;
  notifications: number;
  bulkRequests: number;
  e2eRequests: number;
  replayDeliveries: number;
  digests: number;
  calls: number;
  bulkCalls: number;
  depthSamples: number;
  initRuns: number;
  /** Bundles whose init is timed, spread over them (all where absent). */
  timedInits?: number;
  longWaits: number;
  inboxLarge: number;
  addedCostEvents: number;
  /** The added-costs section's events per bulk request, where not `endToEnd`'s own (BULK_EVENTS, scenarios.ts). */
  addedCostRequestEvents?: number;
}

/** The load tests' smoke run (test/load/bench.test.ts): every section at the smallest sizes that exercise it. */
export const SIZES: Sizes = SMOKE
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
      // A fresh process per bundle was most of the section's CPU: a dozen still go through every step.
      timedInits: 12,
      longWaits: 5,
      inboxLarge: 300,
      addedCostEvents: 20,
      // The smoke run only has to go through every step of every variant: a fifth of the events each.
      addedCostRequestEvents: 20,
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

/** The days the seeded notifications of the activity feed's depth comparison are spread over. */
export const SEEDED_ACTIVITY_DAYS = 10;
/** Notifications of the production environment, the activity feed's shallow side. */
export const SMALL_ENVIRONMENT = SMOKE ? 100 : 1_000;

export const LIVE = {
  // 200/s builds a backlog on the 2-CPU machine the bench runs on (so does 100/s): every push is
  // ~5 more DynamoDB Local requests and 3 PostToConnection calls (docs/performance.md, "Live").
  perSecond: Number(process.env.BENCH_LIVE_RATE ?? 25),
  seconds: Number(process.env.BENCH_LIVE_SECONDS ?? (SMOKE ? 2 : QUICK ? 5 : 30)),
  subscribers: Number(process.env.BENCH_LIVE_SUBSCRIBERS ?? (SMOKE ? 20 : 200)),
};

/** Members of the large-audience section's topics, smallest first. */
export const AUDIENCES = (process.env.BENCH_AUDIENCES ?? (SMOKE ? '50,100,200' : QUICK ? '200,1000,3000' : '1000,10000,50000'))
  .split(',')
  .map(Number);

export const TARGETS = {
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

export const log = (message: string): void => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
