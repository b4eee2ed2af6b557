import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { loadHandler } from '#infra/local/handlers.ts';
import { localDispatcher } from '#infra/local/api-gateway.ts';
import { startPoller, type Poller } from '#infra/local/sqs-poller.ts';
import { startLocalStack, type LocalStack } from '#infra/local/stack.ts';
import { startWakePoller } from '#infra/local/wake-poller.ts';
import { queues } from '#infra/queues.ts';
import { routes } from '#infra/routes.ts';
import { sqs } from '#lib/queue/client.ts';
import { dynamo } from '#lib/store/client.ts';
import { countsBetween, meterRequests, type RequestCounts, type RequestMeter } from '#lib/store/request-meter.ts';

// The service on this machine, as the benchmark drives it: the local stack (DynamoDB Local and
// fauxqs) without its own pollers, pollers started here around timed consumers (so each batch's
// duration is known, as Lambda would bill it), every DynamoDB and SQS request counted, and the
// route table called through the local API Gateway's dispatcher (the handler's own time, no socket).
// The local WebSocket API serves the inbox sockets the live scenario opens.

export interface ApiResult {
  status: number;
  body: any;
  ms: number;
}

export interface ConsumerStats {
  batches: number;
  records: number;
  /** Records the consumer reported failed (they come back after the visibility timeout). */
  failed: number;
  ms: number;
}

export interface SqsCounts {
  sendRequests: number;
  messagesSent: number;
  receiveRequests: number;
  messagesReceived: number;
  deleteRequests: number;
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
  /** Waits until both queues are empty and no consumer runs (delayed messages included). */
  idle(timeoutMs?: number): Promise<void>;
  /**
   * Runs `section` timed: DynamoDB requests do not ask for their consumed capacity meanwhile (the
   * raw writes they are compared with do not either); counts of requests go on.
   */
  timed<T>(section: () => Promise<T>): Promise<T>;
  /** Restarts the pollers with `concurrency` batches per consumer at once (0: stops them). */
  setConsumerConcurrency(concurrency: number): Promise<void>;
  stop(): Promise<void>;
}

const EMPTY_SQS: SqsCounts = { sendRequests: 0, messagesSent: 0, receiveRequests: 0, messagesReceived: 0, deleteRequests: 0 };

/** Counts the SQS requests of a client into `counts`. */
function meterSqs(client: SQSClient, counts: SqsCounts): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context as { commandName?: string }).commandName;
      const input = args.input as { Entries?: unknown[] };
      const result = await next(args);
      if (name === 'SendMessageBatchCommand') {
        counts.sendRequests++;
        counts.messagesSent += input.Entries?.length ?? 0;
      } else if (name === 'SendMessageCommand') {
        counts.sendRequests++;
        counts.messagesSent++;
      } else if (name === 'ReceiveMessageCommand') {
        const messages = (result.output as { Messages?: unknown[] }).Messages?.length ?? 0;
        // Empty long polls are requests too, but their number depends on idle time, not on load.
        if (messages > 0) {
          counts.receiveRequests++;
          counts.messagesReceived += messages;
        }
      } else if (name === 'DeleteMessageBatchCommand' || name === 'DeleteMessageCommand') {
        counts.deleteRequests++;
      }
      return result;
    },
    { step: 'initialize', name: 'benchSqsMeter' },
  );
}

export async function startBench(options: { consumerConcurrency: number; longWaitSeconds?: number }): Promise<Bench> {
  const stateDir = mkdtempSync(join(tmpdir(), 'notify-bench-'));
  const stack = await startLocalStack({
    stateDir,
    tableName: 'notify-bench',
    consumers: false,
    socketPort: 0,
    ...(options.longWaitSeconds !== undefined && { longWaitSeconds: options.longWaitSeconds }),
  });
  const meter: RequestMeter = meterRequests(dynamo());
  const sqsCounts: SqsCounts = { ...EMPTY_SQS };
  meterSqs(sqs(), sqsCounts);
  // Against an emulator the queue URLs name hosts that do not resolve (as in infra/local/stack.ts).
  const pollClient = new SQSClient({ useQueueUrlAsEndpoint: false });
  meterSqs(pollClient, sqsCounts);

  const consumerStats: Record<string, ConsumerStats> = {};
  let inFlight = 0;
  const timed = async (name: string, modulePath: string, sends?: readonly string[]) => {
    const handler = await loadHandler(modulePath, sends);
    const stats = (consumerStats[name] = { batches: 0, records: 0, failed: 0, ms: 0 });
    return async (event: SQSEvent, context: import('aws-lambda').Context) => {
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
  const startPollers = (concurrency: number) => {
    if (concurrency === 0) return;
    pollers = handlers.map(({ def, handler }) =>
      startPoller({
        client: pollClient,
        queueUrl: stack.queueUrls[def.name]!,
        handler,
        name: `${def.name}-consumer`,
        batchSize: def.batchSize,
        concurrency,
        onError: (error) => console.error(`${def.name} consumer:`, error),
      }),
    );
  };
  startPollers(options.consumerConcurrency);
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

  const queueDepth = async () => {
    let total = 0;
    for (const url of queues.map((q) => stack.queueUrls[q.name]!)) {
      const { Attributes = {} } = await pollClient.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
        }),
      );
      total += Object.values(Attributes).reduce((sum, v) => sum + Number(v), 0);
    }
    return total;
  };
  const idle: Bench['idle'] = async (timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    // Twice in a row: a consumer may be between receiving a batch and running it.
    let quiet = 0;
    while (quiet < 2) {
      if (Date.now() > deadline)
        throw new Error(`The pipeline did not settle: ${JSON.stringify({ inFlight, depth: await queueDepth(), consumerStats })}`);
      await sleep(50);
      quiet = inFlight === 0 && (await queueDepth()) === 0 ? quiet + 1 : 0;
    }
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
      if (pollers.length > 0) {
        await Promise.all(pollers.map((p) => p.stop()));
        pollers = [];
        // A stopped poller aborts its long poll on the client side only: fauxqs still hands the
        // next message to that dead request (in flight, then lost for the visibility timeout) until
        // the poll's WaitTimeSeconds (1 s) is over. So nothing is sent before then.
        await sleep(1_200);
      }
      startPollers(concurrency);
    },
    stop: async () => {
      await Promise.all([...pollers, wakes].map((p) => p.stop()));
      pollClient.destroy();
      await stack.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
