import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context } from 'aws-lambda';
import { loadHandler } from '#infra/local/handlers.ts';
import { localDispatcher } from '#infra/local/api-gateway.ts';
import { startPoller, type Poller } from '#infra/local/sqs-poller.ts';
import { startLocalStack, type LocalStack } from '#infra/local/stack.ts';
import { startWakePoller } from '#infra/local/wake-poller.ts';
import { STREAM_IDLE_MS, startStreamPoller, type StreamPoller } from '#infra/local/stream-poller.ts';
import { streamConsumers } from '#infra/streams.ts';
import { ENV } from '#lib/config.ts';
import { consumerTimeoutMs, queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';
import { sqs } from '#lib/queue/client.ts';
import { CACHED_MIDDLEWARE } from '#lib/sdk-middleware-cache.ts';
import { withoutSdkLogging } from '#lib/sdk-logging.ts';
import { dynamo } from '#lib/store/client.ts';
import { countsBetween, meterRequests, type RequestCounts, type RequestMeter } from './request-meter.ts';
import { QueueLedger, type SqsCounts } from './queue-ledger.ts';
import { SMOKE } from './results-path.ts';

export type { SqsCounts } from './queue-ledger.ts';

// The service on this machine, as the benchmark drives it: the local stack (DynamoDB Local and
// fauxqs) without its own pollers, pollers started here around timed consumers (so each batch's
// duration is known, as Lambda would bill it), every DynamoDB and SQS request counted, and the
// route table called through the local API Gateway's dispatcher (the handler's own time, no socket).
// The local WebSocket API serves the inbox sockets the live scenario opens.

// Sections pause the consumers and go on sending (to time handlers alone): their receives wait a
// second, not the local runtime's ten, so a paused queue's next message is not handed to a
// stopped poller's receive (infra/local/sqs-poller.ts). Earlier runs of the bench polled so too.
const PAUSABLE_RECEIVE_WAIT_SECONDS = 1;
/** How often `idle` looks at the queues and the consumers running. */
const QUIET_CHECK_MS = 50;

export interface ApiResult {
  status: number;
  /** The parsed JSON body (its text when not JSON); each caller says the shape it expects. */
  body: unknown;
  ms: number;
}

export interface ConsumerStats {
  batches: number;
  records: number;
  /** Records the consumer reported failed (they come back after the visibility timeout). */
  failed: number;
  ms: number;
}

export interface Snapshot {
  dynamo: RequestCounts;
  sqs: SqsCounts;
  /** Long waits' wakes the local scheduler has sent to their queue. */
  wakesFired: number;
  consumers: Record<string, ConsumerStats>;
  at: number;
}

export interface Difference {
  dynamo: RequestCounts;
  sqs: SqsCounts;
  wakesFired: number;
  consumers: Record<string, ConsumerStats>;
  ms: number;
}

export interface Bench {
  stack: LocalStack;
  /** Calls the route table with an API key as the caller, or `{ bearer }` an inbox session's token. */
  api(credential: string | { bearer: string }): (method: string, path: string, body?: unknown) => Promise<ApiResult>;
  snapshot(): Snapshot;
  since(before: Snapshot): Difference;
  /**
   * Waits until every queue is empty and no consumer runs (delayed messages included). With the
   * consumers paused, it runs them until the queues are drained and pauses them again. On timeout
   * it names each queue still holding messages and what they are (kinds and counts).
   */
  idle(timeoutMs?: number): Promise<void>;
  /**
   * Runs `section` timed: DynamoDB requests do not ask for their consumed capacity meanwhile (the
   * raw writes they are compared with do not either); counts of requests go on.
   */
  timed<T>(section: () => Promise<T>): Promise<T>;
  /** Starts (again) or stops the table's stream consumers. */
  setStreamConsumers(on: boolean): Promise<void>;
  /**
   * Runs `section` with the stream consumers stopped, then starts them again where the stream is
   * then: what it writes is never read by them (a replay of writes timed alone).
   */
  withoutStreamConsumers<T>(section: () => Promise<T>): Promise<T>;
  /** Restarts the pollers with `concurrency` batches per consumer at once (0: stops them). */
  setConsumerConcurrency(concurrency: number): Promise<void>;
  stop(): Promise<void>;
}

export interface BenchOptions {
  consumerConcurrency: number;
  longWaitSeconds?: number;
  /**
   * Run the table's stream consumers (webhook events) as the deployed stack does (default true).
   * Locally their reading of the stream costs DynamoDB Local CPU that AWS does not bill per event.
   */
  streams?: boolean;
  /** Another bench process's emulators, with a table (and so queues) of this one's own; default: start its own. */
  emulators?: SharedEmulators;
}

export interface SharedEmulators {
  dynamoEndpoint: string;
  sqsEndpoint: string;
  tableName: string;
}

export async function startBench(options: BenchOptions): Promise<Bench> {
  const stateDir = mkdtempSync(join(tmpdir(), 'notify-bench-'));
  const { emulators } = options;
  const stack = await startLocalStack({
    stateDir,
    tableName: emulators?.tableName ?? 'notify-bench',
    ...(emulators && { dynamoEndpoint: emulators.dynamoEndpoint, sqsEndpoint: emulators.sqsEndpoint }),
    // The smoke run measures nothing: its emulator need not reach peak speed.
    shortLivedEmulator: SMOKE,
    consumers: false,
    socketPort: 0,
    ...(options.longWaitSeconds !== undefined && { longWaitSeconds: options.longWaitSeconds }),
  });
  const meter: RequestMeter = meterRequests(dynamo());
  const queueNames = new Map(Object.entries(stack.queueUrls).map(([name, url]) => [url, name]));
  const ledger = new QueueLedger((url) => queueNames.get(url) ?? url);
  const sqsCounts = ledger.counts;
  ledger.meter(sqs());
  // Against an emulator the queue URLs name hosts that do not resolve (as in infra/local/stack.ts).
  // Its middleware resolved once, as the stack's pollers' (the ledger's is added before its first send).
  const pollClient = withoutSdkLogging(new SQSClient({ useQueueUrlAsEndpoint: false, ...CACHED_MIDDLEWARE }));
  ledger.meter(pollClient);

  const consumerStats: Record<string, ConsumerStats> = {};
  let inFlight = 0;
  const timed = async (name: string, modulePath: string, sends?: readonly string[]) => {
    const handler = await loadHandler(modulePath, sends);
    const stats = (consumerStats[name] = { batches: 0, records: 0, failed: 0, ms: 0 });
    // An SQS event or a stream's: both carry their batch as `Records`.
    return async (event: { Records: readonly unknown[] }, context: Context) => {
      inFlight++;
      const started = performance.now();
      try {
        const result = await handler(event, context);
        stats.failed += (result as { batchItemFailures?: unknown[] } | undefined)?.batchItemFailures?.length ?? 0;
        return result;
      } catch (error) {
        stats.failed += event.Records.length;
        throw error;
      } finally {
        stats.ms += performance.now() - started;
        stats.batches++;
        stats.records += event.Records.length;
        inFlight--;
      }
    };
  };
  const handlers = await Promise.all(
    queues.filter((q) => q.consumer).map(async (def) => ({ def, handler: await timed(def.name, def.consumer!, def.sends) })),
  );
  let pollers: Poller[] = [];
  /** The concurrency the consumers last ran at: `idle` drains paused queues at it. */
  let lastConcurrency = options.consumerConcurrency > 0 ? options.consumerConcurrency : 8;
  const startPollers = (concurrency: number) => {
    if (concurrency === 0) return;
    lastConcurrency = concurrency;
    pollers = handlers.map(({ def, handler }) =>
      startPoller({
        client: pollClient,
        queueUrl: stack.queueUrls[def.name]!,
        handler,
        name: `${def.name}-consumer`,
        batchSize: def.batchSize,
        timeoutMs: consumerTimeoutMs(def.visibilityTimeoutSeconds),
        concurrency,
        receiveWaitSeconds: PAUSABLE_RECEIVE_WAIT_SECONDS,
        onError: (error) => console.error(`${def.name} consumer:`, error),
      }),
    );
  };
  startPollers(options.consumerConcurrency);
  const streamDynamo = new DynamoDBClient({});
  let streamPoller: StreamPoller | undefined;
  const startStreams = async () => {
    streamPoller = await startStreamPoller({
      dynamo: streamDynamo,
      ...(stack.env.AWS_ENDPOINT_URL_DYNAMODB && { endpoint: stack.env.AWS_ENDPOINT_URL_DYNAMODB }),
      tableName: stack.env[ENV.tableName]!,
      consumers: await Promise.all(
        streamConsumers.map(async (def) => ({
          def,
          handler: await timed(def.name, def.consumer, def.sends),
          onError: (error: unknown) => console.error(`${def.name} stream consumer:`, error),
        })),
      ),
    });
  };
  if (options.streams !== false) await startStreams();
  // Long waits' wakes (the local EventBridge Scheduler): its sends go through the metered client.
  let wakesFired = 0;
  const wakes = startWakePoller({ onError: (error) => console.error('wake poller:', error), onFired: () => wakesFired++ });

  const dispatch = localDispatcher(routes);
  const api: Bench['api'] = (credential) => async (method, path, body) => {
    const authorization = typeof credential === 'string' ? `ApiKey ${credential}` : `Bearer ${credential.bearer}`;
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    const result = await dispatch({
      method,
      url: path,
      headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: payload,
    });
    const ms = performance.now() - started;
    let parsed: unknown = result.body;
    try {
      parsed = result.body ? JSON.parse(result.body) : undefined;
    } catch {
      // not JSON
    }
    return { status: result.statusCode ?? 200, body: parsed, ms };
  };

  const snapshot = (): Snapshot => ({
    dynamo: meter.snapshot(),
    sqs: { ...sqsCounts },
    wakesFired,
    consumers: structuredClone(consumerStats),
    at: performance.now(),
  });
  const since = (before: Snapshot): Difference => {
    const now = snapshot();
    const sqsDiff = Object.fromEntries(
      Object.entries(now.sqs).map(([k, v]) => [k, v - before.sqs[k as keyof SqsCounts]]),
    ) as unknown as SqsCounts;
    const consumers: Record<string, ConsumerStats> = {};
    for (const [name, s] of Object.entries(now.consumers)) {
      const b = before.consumers[name] ?? { batches: 0, records: 0, failed: 0, ms: 0 };
      consumers[name] = { batches: s.batches - b.batches, records: s.records - b.records, failed: s.failed - b.failed, ms: s.ms - b.ms };
    }
    return {
      dynamo: countsBetween(before.dynamo, now.dynamo),
      sqs: sqsDiff,
      wakesFired: now.wakesFired - before.wakesFired,
      consumers,
      ms: now.at - before.at,
    };
  };

  const attributesOf = async (name: string) => {
    const { Attributes = {} } = await pollClient.send(
      new GetQueueAttributesCommand({
        QueueUrl: stack.queueUrls[name]!,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    return {
      visible: Number(Attributes.ApproximateNumberOfMessages ?? 0),
      inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
      delayed: Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0),
    };
  };
  const queueDepth = async () => {
    let total = 0;
    for (const q of queues) {
      const a = await attributesOf(q.name);
      total += a.visible + a.inFlight + a.delayed;
    }
    return total;
  };
  /** Every queue that still holds messages: its depth by state, and what the bench saw sent to it and not deleted, by kind. */
  const stuck = async () => {
    const held: Record<string, unknown> = {};
    for (const q of queues) {
      const a = await attributesOf(q.name);
      if (a.visible + a.inFlight + a.delayed === 0) continue;
      held[q.name] = {
        ...a,
        consumerPolling: pollers.length > 0 && q.consumer !== undefined,
        outstandingByKind: ledger.outstanding(q.name),
      };
    }
    return held;
  };
  const waitQuiet = async (deadline: number, what: string) => {
    // Twice in a row: a consumer may be between receiving a batch and running it. With stream
    // consumers, for four of their poller's idle waits, so the last writes' records are read.
    const needed = streamPoller ? Math.ceil((4 * STREAM_IDLE_MS) / QUIET_CHECK_MS) : 2;
    let quiet = 0;
    while (quiet < needed) {
      if (Date.now() > deadline)
        throw new Error(`The pipeline did not settle (${what}): ${JSON.stringify({ consumersRunning: inFlight, queues: await stuck() })}`);
      await sleep(QUIET_CHECK_MS);
      quiet = inFlight === 0 && (await queueDepth()) === 0 ? quiet + 1 : 0;
    }
  };
  const idle: Bench['idle'] = async (timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    if (pollers.length > 0 || (await queueDepth()) === 0) return waitQuiet(deadline, 'consumers running');
    // Paused consumers drain nothing: a section that paused them (to time handlers alone) left
    // its messages queued. They are drained here at the last concurrency, then paused again.
    startPollers(lastConcurrency);
    try {
      await waitQuiet(deadline, 'consumers resumed to drain what was queued while paused');
    } finally {
      await stopPollers();
    }
  };
  const setStreamConsumers: Bench['setStreamConsumers'] = async (on) => {
    await streamPoller?.stop();
    streamPoller = undefined;
    if (on) await startStreams();
  };
  const stopPollers = async () => {
    if (pollers.length === 0) return;
    await Promise.all(pollers.map((p) => p.stop()));
    pollers = [];
    // A stopped poller aborts its long poll on the client side only: fauxqs still hands the
    // next message to that dead request (in flight, then lost for the visibility timeout) until
    // the poll's wait is over. So nothing is sent before then.
    await sleep(PAUSABLE_RECEIVE_WAIT_SECONDS * 1000 + 200);
  };

  return {
    stack,
    api,
    snapshot,
    since,
    idle,
    timed: async (section) => {
      meter.askCapacity(false);
      try {
        return await section();
      } finally {
        meter.askCapacity(true);
      }
    },
    setConsumerConcurrency: async (concurrency) => {
      await stopPollers();
      startPollers(concurrency);
    },
    setStreamConsumers,
    withoutStreamConsumers: async (section) => {
      if (!streamPoller) return section();
      await setStreamConsumers(false);
      try {
        return await section();
      } finally {
        // A new poller starts at the stream's end (LATEST): the section's records are passed over.
        await setStreamConsumers(true);
      }
    },
    stop: async () => {
      await Promise.all([...pollers.map((p) => p.stop()), streamPoller?.stop(), wakes.stop()]);
      streamDynamo.destroy();
      pollClient.destroy();
      await stack.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
