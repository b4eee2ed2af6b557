import { largeTopic, type LargeTopicResult } from './fan-out.ts';
import { startBench, type Bench } from './harness.ts';
import { loadNow, machineOf, writeResults, type Machine } from './results-path.ts';
import { createInAppWorkflow, endToEnd, type EndToEndResult, type WorkflowRef } from './scenarios.ts';
import { benchOrganization, seedSubscribers, type BenchEnv } from './seed.ts';
import { AUDIENCES, CONSUMER_CONCURRENCY, log, SIZES, TARGETS } from './settings.ts';
import { round } from './stats.ts';
import { n, table, type Check } from './table.ts';

// Section 3c, large audiences (bench/fan-out.ts measures one topic): one trigger to each topic
// size, smallest first, against the end-to-end rate of many one-recipient triggers.
// BENCH_ONLY=fanout runs it alone, with an end-to-end run of its own (bench/results-fanout.json).

export interface AudiencesResult {
  topics: LargeTopicResult[];
  manyTriggersPerSec: number;
  checks: Check[];
}

/** One trigger to each topic size, smallest first; the targets against the end-to-end rate of the same run. */
export async function audienceSection(
  bench: Bench,
  dev: BenchEnv,
  workflow: WorkflowRef,
  manyTriggersPerSec: number,
): Promise<AudiencesResult> {
  const topics: LargeTopicResult[] = [];
  for (const members of AUDIENCES) {
    log(`large audience: one trigger to a topic of ${members.toLocaleString('en-US')}`);
    topics.push(await bench.timed(() => largeTopic(bench, dev, workflow, members, CONSUMER_CONCURRENCY)));
  }
  const smallest = topics[0]!;
  const largest = topics[topics.length - 1]!;
  const middle = topics[Math.floor(topics.length / 2)]!;
  const checks: Check[] = [
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

export function printAudiences(a: Pick<AudiencesResult, 'topics' | 'manyTriggersPerSec'>): void {
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

/** bench/results-fanout.json. */
export interface AudiencesResults {
  startedAt: string;
  machine: Machine;
  consumerConcurrency: number;
  targets: Check[];
  manyTriggers: { events: number; deliveredPerSec: number; perDelivery: EndToEndResult['perDelivery'] };
  topics: LargeTopicResult[];
}

/** BENCH_ONLY=fanout: the section alone, with the end-to-end run it is compared with. */
export async function audiencesOnly(): Promise<void> {
  const startedAt = new Date();
  const load = [loadNow()];
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
    load.push(loadNow());
    const results: AudiencesResults = {
      startedAt: startedAt.toISOString(),
      machine: machineOf(load),
      consumerConcurrency: CONSUMER_CONCURRENCY,
      targets: audiences.checks.map((c) => ({ ...c, value: round(c.value) })),
      manyTriggers: { events: many.events, deliveredPerSec: many.deliveredPerSec, perDelivery: many.perDelivery },
      topics: audiences.topics,
    };
    writeResults('results-fanout.json', results);
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
