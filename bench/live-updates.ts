import { coresUsed, cpuMsPerDelivery, cpuNow } from './cpu.ts';
import { costPerMillionEvents } from './cost.ts';
import { startBench, type Bench } from './harness.ts';
import { liveUnderLoad, type LiveResult } from './live.ts';
import { loadNow, machineOf, writeResults, type Machine } from './results-path.ts';
import { createInAppWorkflow, endToEnd, type EndToEndResult, type WorkflowRef } from './scenarios.ts';
import { benchOrganization, seedSubscribers, type BenchEnv } from './seed.ts';
import { CONSUMER_CONCURRENCY, LIVE, log } from './settings.ts';
import { n, table } from './table.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';

// Section 3b, live updates (bench/live.ts measures): the same load without sockets and with one
// open per subscriber, each timed with the CPU both sides used meanwhile. BENCH_ONLY=live runs it
// alone, with what a delivery without sockets costs (bench/results-live.json).

/** One run of the load, and the CPU it took. */
export type LiveRun = LiveResult & { coresUsed: ReturnType<typeof coresUsed>; cpuMsPerEvent: number | undefined };

export type LiveSectionResult = LiveRun & { withoutSockets: LiveRun };

/**
 * The live section, timed, with the CPU both sides used meanwhile; without sockets first (the same load to
 * subscribers that never opened one).
 */
export async function liveSection(
  bench: Bench,
  dev: BenchEnv,
  workflow: WorkflowRef,
  subscribers: readonly Subscriber[],
): Promise<LiveSectionResult> {
  const run = async (sockets: boolean, to: readonly Subscriber[]): Promise<LiveRun> => {
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

/** What a delivery to a subscriber without an open socket costs (BENCH_ONLY=live). */
export interface NoSockets {
  perDelivery: EndToEndResult['perDelivery'];
  sqsPerDelivery: EndToEndResult['sqsPerDelivery'];
  consumers: EndToEndResult['consumers'];
  costPerMillionEvents: number;
}

/** bench/results-live.json. */
export interface LiveResults {
  startedAt: string;
  machine: Machine;
  noSockets: NoSockets;
  live: LiveSectionResult;
}

/** BENCH_ONLY=live: the section alone, with what a delivery without sockets costs. */
export async function liveOnly(): Promise<void> {
  const startedAt = new Date();
  const load = [loadNow()];
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
    load.push(loadNow());
    const noSockets: NoSockets = {
      perDelivery: quiet.perDelivery,
      sqsPerDelivery: quiet.sqsPerDelivery,
      consumers: quiet.consumers,
      costPerMillionEvents: costPerMillionEvents(quiet).totalUsd,
    };
    const results: LiveResults = { startedAt: startedAt.toISOString(), machine: machineOf(load), noSockets, live };
    writeResults('results-live.json', results);
    console.log(`\nLive ${results.startedAt} · ${results.machine.cpus} CPUs · load ${results.machine.loadAverage1m.join(' → ')}`);
    printNoSockets(noSockets);
    printLive(live);
  } finally {
    await bench.stop();
  }
}

function printNoSockets(q: NoSockets): void {
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
}

export function printLive(l: LiveSectionResult): void {
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
