import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { probeDb } from './own-client.ts';
import { INDEXES, keys } from '#lib/store/keys.ts';
import { onIndex } from '#lib/store/index-keys.ts';
import { WRITE_OPERATIONS, type RequestCounts } from './request-meter.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import type { ApiResult, Bench, Difference } from './harness.ts';
import type { BenchEnv } from './seed.ts';
import { median, percentile } from './stats.ts';

// The measured scenarios. Each one runs against the local stack through the route table's
// handlers; counts come from the request meter, times from the handlers and consumers.

export type Call = (method: string, path: string, body?: unknown) => Promise<ApiResult>;

export interface WorkflowRef {
  _id: string;
  workflowId: string;
  stepDbId: string;
  stepId: string;
}

/** Per operation: requests, write requests and capacity units, divided by `per`. */
export interface Cost {
  requests: number;
  writeRequests: number;
  readUnits: number;
  writeUnits: number;
  /** Transactional write units counted twice, as AWS bills them (DynamoDB Local counts them once). */
  billedWriteUnits: number;
  byOperation: Record<string, number>;
}

export function costOf(counts: RequestCounts, per = 1): Cost {
  let requests = 0;
  let writeRequests = 0;
  let readUnits = 0;
  let writeUnits = 0;
  let billedWriteUnits = 0;
  const byOperation: Record<string, number> = {};
  for (const [operation, c] of Object.entries(counts)) {
    requests += c.requests;
    if (WRITE_OPERATIONS.has(operation)) writeRequests += c.requests;
    readUnits += c.readUnits;
    writeUnits += c.writeUnits;
    billedWriteUnits += operation === 'TransactWriteItems' ? 2 * c.writeUnits : c.writeUnits;
    byOperation[operation] = c.requests / per;
  }
  return {
    requests: requests / per,
    writeRequests: writeRequests / per,
    readUnits: readUnits / per,
    writeUnits: writeUnits / per,
    billedWriteUnits: billedWriteUnits / per,
    byOperation,
  };
}

export async function expectStatus(result: Promise<ApiResult>, status: number, what: string): Promise<ApiResult> {
  const r = await result;
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
  return r;
}

export async function createInAppWorkflow(call: Call, workflowId: string, steps?: unknown[]): Promise<WorkflowRef> {
  const inApp = {
    name: 'Inbox',
    stepId: 'inbox',
    type: 'in_app',
    controlValues: {
      subject: 'New comment from {{payload.author}}',
      body: 'Hi {{subscriber.firstName}}, {{payload.author}} commented: {{payload.comment}}',
    },
  };
  const res = await expectStatus(
    call('POST', '/v2/workflows', { name: workflowId, workflowId, active: true, steps: steps ?? [inApp] }),
    201,
    'create workflow',
  );
  const body = res.body as { _id: string; steps: { _id: string; stepId: string }[] };
  const last = body.steps[body.steps.length - 1]!;
  return { _id: body._id, workflowId, stepDbId: last._id, stepId: last.stepId };
}

export const bulkBody = (workflowId: string, subscriberIds: readonly string[], tag: string) => ({
  events: subscriberIds.map((subscriberId, i) => ({
    name: workflowId,
    to: subscriberId,
    payload: { author: 'Bob', comment: `Looks good (${tag}-${i})`, postId: `post-${i % 7}` },
  })),
});

/** A Query of one shard (`gsi5pk`) of the environment's message index (`E#MSGS`), with the caller's options. */
export const messageShardQuery = (gsi5pk: string, options: Omit<QueryCommandInput, 'TableName' | 'IndexName'> = {}) =>
  new QueryCommand({
    TableName: tableName(),
    IndexName: INDEXES.message.ofEnvironment.name,
    KeyConditionExpression: onIndex(INDEXES.message.ofEnvironment),
    ExpressionAttributeValues: { ':pk': gsi5pk },
    ...options,
  });

/** Messages of the environment (the `E#MSGS` index, every shard), counted. */
export async function countMessages(env: BenchEnv): Promise<number> {
  const counts = await Promise.all(
    keys.messagesOfEnvironment(env.scope).map(async ({ gsi5pk }) => {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await probeDb().send(messageShardQuery(gsi5pk, { Select: 'COUNT', ExclusiveStartKey: start }));
        count += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return count;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

// ---- 3. end to end ------------------------------------------------------------------------------

export interface EndToEndResult {
  events: number;
  consumerConcurrency: number;
  acceptedPerSec: number;
  deliveredPerSec: number;
  seconds: number;
  perDelivery: Cost;
  sqsPerDelivery: { sendRequests: number; receiveRequests: number; deleteRequests: number; messages: number };
  consumers: Record<string, { batches: number; recordsPerBatch: number; msPerBatch: number }>;
  apiMsPerRequest: number;
}

/** Events in each bulk request of `endToEnd` unless it is told otherwise. */
export const BULK_EVENTS = 100;

/** `requests` bulk requests of `eventsPerRequest` events (sent `parallel` at a time) until every message exists. */
export async function endToEnd(
  bench: Bench,
  env: BenchEnv,
  workflow: WorkflowRef,
  subscribers: readonly Subscriber[],
  options: { requests: number; parallel: number; consumerConcurrency: number; eventsPerRequest?: number },
): Promise<EndToEndResult> {
  const perRequest = options.eventsPerRequest ?? BULK_EVENTS;
  const call = bench.api(env.apiKey);
  await bench.idle();
  await bench.setConsumerConcurrency(options.consumerConcurrency);
  const messagesBefore = await countMessages(env);
  const before = bench.snapshot();
  const started = performance.now();
  let next = 0;
  let apiMs = 0;
  const sender = async () => {
    while (next < options.requests) {
      const i = next++;
      const ids = Array.from({ length: perRequest }, (_, j) => subscribers[(i * perRequest + j) % subscribers.length]!.subscriberId);
      const r = await expectStatus(
        call('POST', '/v1/events/trigger/bulk', bulkBody(workflow.workflowId, ids, `e2e${i}`)),
        201,
        'bulk trigger',
      );
      apiMs += r.ms;
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, sender));
  const acceptedAt = performance.now();
  await bench.idle(600_000);
  const doneAt = performance.now();
  const diff: Difference = bench.since(before);
  const events = options.requests * perRequest;
  const delivered = (await countMessages(env)) - messagesBefore;
  if (delivered !== events) throw new Error(`end to end: ${delivered} messages for ${events} events`);
  const consumers: EndToEndResult['consumers'] = {};
  for (const [name, s] of Object.entries(diff.consumers)) {
    consumers[name] = {
      batches: s.batches,
      recordsPerBatch: s.records / Math.max(1, s.batches),
      msPerBatch: s.ms / Math.max(1, s.batches),
    };
  }
  return {
    events,
    consumerConcurrency: options.consumerConcurrency,
    acceptedPerSec: events / ((acceptedAt - started) / 1000),
    deliveredPerSec: events / ((doneAt - started) / 1000),
    seconds: (doneAt - started) / 1000,
    perDelivery: costOf(diff.dynamo, events),
    sqsPerDelivery: {
      sendRequests: diff.sqs.sendRequests / events,
      receiveRequests: diff.sqs.receiveRequests / events,
      deleteRequests: diff.sqs.deleteRequests / events,
      messages: diff.sqs.messagesSent / events,
    },
    consumers,
    apiMsPerRequest: apiMs / options.requests,
  };
}

// ---- 4 and 7. the ten endpoints: requests per call and latency ----------------------------------

export interface EndpointResult {
  operationId: string;
  route: string;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  perCall: Cost;
}

export interface EndpointCase {
  operationId: string;
  route: string;
  /** The i-th call. */
  call: (i: number) => Promise<ApiResult>;
  status: number;
  calls: number;
}

/** Each case's calls one after another, the pipeline paused; counts and times per call. */
export async function measureEndpoints(bench: Bench, cases: readonly EndpointCase[]): Promise<EndpointResult[]> {
  await bench.idle();
  await bench.setConsumerConcurrency(0);
  const results: EndpointResult[] = [];
  for (const c of cases) {
    // Warm: the handler's module and its caches, as in a warm Lambda container.
    for (let i = 0; i < 3; i++) await expectStatus(c.call(-1 - i), c.status, c.operationId);
    const times: number[] = [];
    await bench.timed(async () => {
      for (let i = 0; i < c.calls; i++) times.push((await expectStatus(c.call(i), c.status, c.operationId)).ms);
    });
    // What a call costs, counted on calls of their own (capacity asked for).
    const counted = Math.min(10, c.calls);
    const before = bench.snapshot();
    for (let i = 0; i < counted; i++) await expectStatus(c.call(c.calls + i), c.status, c.operationId);
    const diff = bench.since(before);
    results.push({
      operationId: c.operationId,
      route: c.route,
      calls: c.calls,
      p50Ms: median(times),
      p99Ms: percentile(times, 99),
      perCall: costOf(diff.dynamo, counted),
    });
  }
  return results;
}

// ---- 4. a digest of 10 events -------------------------------------------------------------------

export interface DigestResult {
  digests: number;
  eventsPerDigest: number;
  perDigest: Cost;
  sqsMessagesPerDigest: number;
}

const DIGEST_WINDOW_SECONDS = 10;

/** `digests` subscribers get 10 events each of a digest → in-app workflow (one bulk request). */
export async function digestOfTen(
  bench: Bench,
  env: BenchEnv,
  subscribers: readonly Subscriber[],
  digests: number,
  consumerConcurrency: number,
): Promise<DigestResult> {
  const call = bench.api(env.apiKey);
  const workflow = await createInAppWorkflow(call, 'comment-digest', [
    // Long enough that a subscriber's 10 events (one bulk request) reach one window on a loaded machine.
    { name: 'Digest', stepId: 'digest', type: 'digest', controlValues: { amount: DIGEST_WINDOW_SECONDS, unit: 'seconds' } },
    { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: '{{step.total_count}} new comments' } },
  ]);
  await bench.idle();
  await bench.setConsumerConcurrency(consumerConcurrency);
  const ids = subscribers.slice(0, digests).flatMap((s) => Array.from({ length: 10 }, () => s.subscriberId));
  const messagesBefore = await countMessages(env);
  const before = bench.snapshot();
  for (let i = 0; i < ids.length; i += 100) {
    await expectStatus(
      call('POST', '/v1/events/trigger/bulk', bulkBody(workflow.workflowId, ids.slice(i, i + 100), `digest${i}`)),
      201,
      'digest trigger',
    );
  }
  // The window is longer than the bench stack's long-wait threshold, so its end is a scheduled wake
  // (kept in the table, not on a queue): the queues are empty meanwhile. Waited for, with a bound.
  const deadline = Date.now() + 120_000;
  await bench.idle(120_000);
  while ((await countMessages(env)) - messagesBefore < digests && Date.now() < deadline) await sleep(250);
  await bench.idle(120_000);
  const diff = bench.since(before);
  // A subscriber whose events straddle the window's end gets two digests (as designed): counted per digest made.
  const delivered = (await countMessages(env)) - messagesBefore;
  if (delivered < digests) throw new Error(`digest: ${delivered} messages for ${digests} subscribers`);
  return {
    digests: delivered,
    eventsPerDigest: (10 * digests) / delivered,
    perDigest: costOf(diff.dynamo, delivered),
    sqsMessagesPerDigest: diff.sqs.messagesSent / delivered,
  };
}

// ---- 5. depth -----------------------------------------------------------------------------------

export interface DepthResult {
  what: string;
  shallow: { label: string; p50Ms: number; readUnits: number; requests: number };
  deep: { label: string; p50Ms: number; readUnits: number; requests: number };
  ratio: number;
}

/** Alternates the two calls `samples` times each; p50 and read units per call of each. */
export async function compareDepth(
  bench: Bench,
  what: string,
  shallow: { label: string; call: () => Promise<ApiResult> },
  deep: { label: string; call: () => Promise<ApiResult> },
  samples: number,
): Promise<DepthResult> {
  await bench.idle();
  await bench.setConsumerConcurrency(0);
  const measure = async (call: () => Promise<ApiResult>, sink: number[]) => {
    const before = bench.snapshot();
    sink.push((await expectStatus(call(), 200, what)).ms);
    return costOf(bench.since(before).dynamo);
  };
  for (let i = 0; i < 3; i++) {
    await shallow.call();
    await deep.call();
  }
  const a: number[] = [];
  const b: number[] = [];
  let costA = costOf({});
  let costB = costOf({});
  for (let i = 0; i < samples; i++) {
    costA = await measure(shallow.call, a);
    costB = await measure(deep.call, b);
  }
  const row = (label: string, times: number[], cost: Cost) => ({
    label,
    p50Ms: median(times),
    readUnits: cost.readUnits,
    requests: cost.requests,
  });
  return { what, shallow: row(shallow.label, a, costA), deep: row(deep.label, b, costB), ratio: median(b) / median(a) };
}
