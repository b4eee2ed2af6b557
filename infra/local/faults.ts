import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProvisionedThroughputExceededException, ThrottlingException } from '@aws-sdk/client-dynamodb';
import type { BatchResultErrorEntry, SendMessageBatchRequest, SendMessageBatchResult } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { demoProvider } from '#lib/providers/demo.ts';
import { ProviderError, type DeliveryProvider } from '#lib/providers/provider.ts';
import { sqs } from '#lib/queue/client.ts';
import { dynamo } from '#lib/store/client.ts';

// Faults of the local runtime, switched on and off by tests (issue 9): messages delivered twice,
// consumers that crash part-way through their writes, DynamoDB throttling, providers that fail
// or time out, and one operation that keeps failing. Nothing here is part of a deployed function: the local stack installs it only when
// asked (`startLocalStack({ faults: true })`), and then every switch is a field of `faults` that
// a test sets in the same process. Faults touch consumer invocations only (the local poller runs
// each in its own context); the API and the test's own reads never see them.

export interface FaultSettings {
  /**
   * Every received message is delivered twice: half the batches are handed to a second
   * invocation at the same time, the other half's messages are sent to the queue again and
   * arrive later in another batch. Copies are not copied again.
   */
  duplicates: boolean;
  crash: {
    /** Each DynamoDB write of a consumer invocation is where it dies, with this probability. */
    probability: number;
    /** Whether that write reaches DynamoDB first (`after`), not (`before`), or either at random. */
    when: 'before' | 'after' | 'either';
    /** Instead: every invocation dies right after its Nth write that lands (1 = its first). */
    atWrite?: number;
    /**
     * Random crashes spare an invocation holding a record past this receive. A rate high enough
     * to crash often in a small run also kills some batch on all its receives, which dead-letters
     * it by design (docs/reliability.md, not promised); a test of recovery sets this below the
     * queues' maxReceiveCount. Unset: every receive may crash.
     */
    throughReceive?: number;
  };
  /** Probability that one DynamoDB request of a consumer is refused as throttled before it is sent. */
  throttle: number;
  provider: {
    /** Probability that a send is answered 503 (nothing delivered). */
    error: number;
    /** Probability that a send hangs for `timeoutMs`, then fails as timed out (nothing delivered). */
    timeout: number;
    timeoutMs: number;
    /** Channels whose sends may fail (default every channel). */
    channels?: string[];
  };
  /**
   * Consumer requests that fail, before they are sent and without the SDK's retries, with the
   * error this returns: a persistent fault of one operation (a queue refusing sends, a hot key).
   * A SendMessageBatch is asked about entry by entry, each as a batch of one, and a refused entry
   * is answered in `Failed` while the others are sent, as SQS refuses messages: one record's
   * refused message must not fail the other records whose messages share its request.
   */
  refuse?: (request: FaultRequest) => Error | undefined;
}

export interface FaultRequest {
  service: 'dynamodb' | 'sqs';
  /** The SDK command, e.g. `TransactWriteItemsCommand`, `SendMessageBatchCommand`. */
  command: string;
  input: Record<string, unknown>;
}

export interface FaultCounts {
  /** Messages handed to two invocations at once. */
  concurrentDuplicates: number;
  /** Messages sent to the queue again, to arrive later. */
  laterDuplicates: number;
  /** Invocations that died before their fatal write reached DynamoDB / after it did. */
  crashesBeforeWrite: number;
  crashesAfterWrite: number;
  /**
   * DynamoDB writes of consumer invocations that the crash switch looked at: a run with random
   * crashes and none of them says whether the writes went past the layer or the draws spared them.
   */
  writesSeen: number;
  /** DynamoDB requests refused as throttled (the SDK retries them, as in AWS). */
  throttles: number;
  providerErrors: number;
  providerTimeouts: number;
}

const OFF: FaultSettings = {
  duplicates: false,
  crash: { probability: 0, when: 'either' },
  throttle: 0,
  provider: { error: 0, timeout: 0, timeoutMs: 500 },
};

/** The switches; tests assign them (`Object.assign(faults, {...})`) and call `resetFaults()` after. */
export const faults: FaultSettings = structuredClone(OFF);
export const faultCounts: FaultCounts = zeroCounts();

/** How one receive of a message ended: its invocation died, it failed, or it was done. */
export type ReceiveEnd = 'crashed' | 'failed' | 'done';
/**
 * Per SQS message id, how each of its receives ended (a message keeps its id in the dead-letter
 * queue): what a test needs to tell a message that died on every receive from one that was lost.
 */
export const receiveEnds = new Map<string, ReceiveEnd[]>();

function zeroCounts(): FaultCounts {
  return {
    concurrentDuplicates: 0,
    laterDuplicates: 0,
    crashesBeforeWrite: 0,
    crashesAfterWrite: 0,
    writesSeen: 0,
    throttles: 0,
    providerErrors: 0,
    providerTimeouts: 0,
  };
}

export function resetFaults(): void {
  delete faults.refuse;
  Object.assign(faults, structuredClone(OFF));
  Object.assign(faultCounts, zeroCounts());
  receiveEnds.clear();
}

/** What a crashed invocation's code sees from then on: the process is gone, nothing it does lands. */
export class SimulatedCrash extends Error {
  constructor() {
    super('Simulated crash of the consumer');
    this.name = 'SimulatedCrash';
  }
}

interface Invocation {
  writes: number;
  crashed: boolean;
  /** The highest receive count of its records (1 = every record's first receive). */
  receive: number;
}

const invocation = new AsyncLocalStorage<Invocation>();
/** Marks a message sent again as a duplicate, so it is not duplicated once more. */
const COPY_ATTRIBUTE = 'faultCopy';

// The SDK's command names, and lib-dynamodb's where a stack reports those.
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
]);

let installed = false;

/** A request of a dead invocation fails (nothing it does lands), and so does one `refuse` picks. */
function stopIfCrashedOrRefused(current: Invocation, service: FaultRequest['service'], command: string | undefined, input: unknown): void {
  if (current.crashed) throw new SimulatedCrash();
  const refused = faults.refuse?.({ service, command: command ?? '', input: input as Record<string, unknown> });
  if (refused) throw refused;
}

/** Puts the fault layer between the service and DynamoDB, SQS and the demo providers (once per process). */
export function installFaults(): void {
  if (installed) return;
  installed = true;
  const client = dynamo();
  // Crashes, around the whole call (SDK retries included): the invocation dies at its Nth write.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const current = invocation.getStore();
      if (!current) return next(args);
      stopIfCrashedOrRefused(current, 'dynamodb', context.commandName, args.input);
      if (!WRITE_COMMANDS.has(context.commandName ?? '')) return next(args);
      faultCounts.writesSeen++;
      const { probability, atWrite, when } = faults.crash;
      if (atWrite !== undefined) {
        // Deterministic: the invocation dies right after its Nth write that lands (a conditional
        // write that is refused changes nothing, so the invocation goes on past it).
        const output = await next(args);
        if (++current.writes === atWrite) {
          current.crashed = true;
          faultCounts.crashesAfterWrite++;
          throw new SimulatedCrash();
        }
        return output;
      }
      const spared = faults.crash.throughReceive !== undefined && current.receive > faults.crash.throughReceive;
      if (spared || Math.random() >= probability) return next(args);
      current.crashed = true;
      if (when === 'after' || (when === 'either' && Math.random() < 0.5)) {
        await next(args).catch(() => undefined);
        faultCounts.crashesAfterWrite++;
      } else {
        faultCounts.crashesBeforeWrite++;
      }
      throw new SimulatedCrash();
    },
    { step: 'initialize', name: 'faultCrashMiddleware', priority: 'high' },
  );
  // Throttling, inside the SDK's retry loop, before the request is sent: the SDK backs off and
  // retries as it does against DynamoDB; a throttle that outlasts its attempts reaches our code.
  client.middlewareStack.add(
    (next) => async (args) => {
      if (faults.throttle > 0 && invocation.getStore() && Math.random() < faults.throttle) {
        faultCounts.throttles++;
        const metadata = { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 };
        throw Math.random() < 0.5
          ? new ProvisionedThroughputExceededException({
              message: 'The level of configured provisioned throughput for the table was exceeded (injected)',
              $metadata: metadata,
            })
          : new ThrottlingException({ message: 'Rate of requests exceeds the allowed throughput (injected)', $metadata: metadata });
      }
      return next(args);
    },
    { step: 'finalizeRequest', name: 'faultThrottleMiddleware', priority: 'low' },
  );
  // A crashed invocation sends nothing to SQS either.
  sqs().middlewareStack.add(
    (next, context) => async (args) => {
      const current = invocation.getStore();
      if (!current) return next(args);
      if (context.commandName === 'SendMessageBatchCommand') {
        if (current.crashed) throw new SimulatedCrash();
        const send = (input: SendMessageBatchRequest) => next({ ...args, input }) as Promise<BatchSent>;
        return sendBatchRefusingEntries(args.input as SendMessageBatchRequest, send) as ReturnType<typeof next>;
      }
      stopIfCrashedOrRefused(current, 'sqs', context.commandName, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'faultCrashMiddleware', priority: 'high' },
  );
  wrapProvider(demoProvider);
}

type BatchSent = { output: SendMessageBatchResult; response: unknown };

/** Sends the entries `refuse` lets through; answers the others in `Failed` with its error. */
async function sendBatchRefusingEntries(
  input: SendMessageBatchRequest,
  send: (input: SendMessageBatchRequest) => Promise<BatchSent>,
): Promise<BatchSent> {
  const refused: BatchResultErrorEntry[] = [];
  const taken = (input.Entries ?? []).filter((entry) => {
    const error = faults.refuse?.({
      service: 'sqs',
      command: 'SendMessageBatchCommand',
      input: { ...input, Entries: [entry] } as unknown as Record<string, unknown>,
    });
    if (error) refused.push({ Id: entry.Id, SenderFault: false, Code: error.name, Message: error.message });
    return !error;
  });
  if (refused.length === 0) return send(input);
  if (taken.length === 0) return { output: { Successful: [], Failed: refused }, response: {} };
  const sent = await send({ ...input, Entries: taken });
  return { ...sent, output: { ...sent.output, Failed: [...(sent.output.Failed ?? []), ...refused] } };
}

/**
 * Provider faults at the send boundary. The demo providers' object is wrapped in place, so the
 * registry (lib/providers/registry.ts) hands out the wrapped send without knowing about faults.
 */
function wrapProvider(provider: DeliveryProvider): void {
  const send = provider.send.bind(provider);
  provider.send = async (delivery) => {
    if (invocation.getStore()?.crashed) throw new SimulatedCrash();
    const { error, timeout, timeoutMs, channels } = faults.provider;
    if (!channels || channels.includes(delivery.channel)) {
      if (Math.random() < error) {
        faultCounts.providerErrors++;
        throw new ProviderError(`${delivery.integration.providerId} answered 503 Service Unavailable (injected)`, {
          statusCode: 503,
          body: 'upstream unavailable',
        });
      }
      if (Math.random() < timeout) {
        faultCounts.providerTimeouts++;
        await sleep(timeoutMs);
        throw new ProviderError(`${delivery.integration.providerId} did not answer within ${timeoutMs} ms (injected)`, { timeoutMs });
      }
    }
    return send(delivery);
  };
}

/** Runs one consumer invocation in its own context; `crashed` when a fault killed it. */
async function invokeOnce<T>(records: SQSRecord[], run: () => Promise<T>): Promise<{ value: T; crashed: boolean }> {
  const receive = Math.max(...records.map((r) => Number(r.attributes.ApproximateReceiveCount) || 1));
  const state: Invocation = { writes: 0, crashed: false, receive };
  const value = await invocation.run(state, run);
  return { value, crashed: state.crashed };
}

/**
 * How the local poller hands a batch to its consumer with faults on. `invoke` runs the handler
 * and answers the ids of the records that failed; `redeliver` sends records to the queue again.
 * Returns the ids that failed: a crashed invocation fails its whole batch, as a dead Lambda
 * instance does, and of two deliveries at once a record fails only if both failed (SQS deletes a
 * message whichever of its receipts is deleted).
 */
export async function invokeWithFaults(
  event: SQSEvent,
  invoke: (event: SQSEvent) => Promise<Set<string>>,
  redeliver: (records: SQSRecord[], attribute: string) => Promise<void>,
): Promise<Set<string>> {
  const once = async (batch: SQSEvent) => {
    const { value, crashed } = await invokeOnce(batch.Records, () => invoke(batch));
    return { failed: crashed ? new Set(batch.Records.map((r) => r.messageId)) : value, crashed };
  };
  const originals = event.Records.filter((r) => !r.messageAttributes[COPY_ATTRIBUTE]);
  if (!faults.duplicates || originals.length === 0) {
    const { failed, crashed } = await once(event);
    return noteEnds(event.Records, failed, () => crashed);
  }

  if (Math.random() < 0.5) {
    faultCounts.concurrentDuplicates += originals.length;
    const [first, second] = await Promise.all([once(event), once({ Records: structuredClone(originals) })]);
    const copied = new Set(originals.map((r) => r.messageId));
    const failed = new Set([...first.failed].filter((id) => !copied.has(id) || second.failed.has(id)));
    return noteEnds(event.Records, failed, (id) => first.crashed || (copied.has(id) && second.crashed));
  }
  faultCounts.laterDuplicates += originals.length;
  await redeliver(originals, COPY_ATTRIBUTE);
  const { failed, crashed } = await once(event);
  return noteEnds(event.Records, failed, () => crashed);
}

/** Records how this receive ended for each record (see `receiveEnds`); returns `failed`. */
function noteEnds(records: SQSRecord[], failed: Set<string>, crashed: (id: string) => boolean): Set<string> {
  for (const { messageId } of records) {
    const end: ReceiveEnd = !failed.has(messageId) ? 'done' : crashed(messageId) ? 'crashed' : 'failed';
    receiveEnds.set(messageId, [...(receiveEnds.get(messageId) ?? []), end]);
  }
  return failed;
}
