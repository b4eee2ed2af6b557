import './env.ts';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { MESSAGE_EVENTS } from '#lib/webhooks/event-types.ts';
import { checkRateLimit } from '#lib/rate-limits/check.ts';
import { costPerMillionEvents, type CostResult } from './cost.ts';
import { coresUsed, cpuMsPerDelivery, cpuNow } from './cpu.ts';
import { putRateNow } from './floor.ts';
import { startBench, type SharedEmulators } from './harness.ts';
import { openSockets } from './live.ts';
import { createInAppWorkflow, endToEnd, expectStatus, type Cost, type EndToEndResult } from './scenarios.ts';
import { benchOrganization, seedSubscribers } from './seed.ts';
import { median } from './stats.ts';
import { replayVariants, type ReplayVariants } from './write-variants.ts';
import { measurePushAlone, type PushAlone } from './push-alone.ts';
import { measureWebhookAlone, type WebhookAlone } from './webhook-alone.ts';
import { SMOKE } from './results-path.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

// A group of variants of the added-costs section (bench/added-costs.ts), in a process of its own:
// metrics and traces are switched for the process, as a Lambda container reads its environment
// once; the rest is switched by the bench between variants. The parent passes the group in
// BENCH_VARIANT (JSON) and reads the results from BENCH_VARIANT_OUT.
//
// Switches, all outside the service's code:
// - `sockets`: the recipients hold an inbox socket open each (so each message is announced and
//   pushed); without, recipients that never opened one;
// - `webhook`: the environment's endpoint subscribed to every `message.*` event (a local receiver
//   answering 204) is enabled; without, disabled;
// - `streams`: the table's stream consumer runs (with no enabled endpoint it finds nothing to send);
// - metrics: Powertools' own POWERTOOLS_METRICS_DISABLED, set by the parent;
// - traces: the parent sets the variables Lambda sets (AWS_EXECUTION_ENV, LAMBDA_TASK_ROOT, a
//   sampled _X_AMZN_TRACE_ID), so Powertools Tracer and the X-Ray SDK work as in Lambda and send
//   their segments by UDP to the daemon address (nothing listens: the cost is building and sending them).

/** What one variant switches on (metrics and traces: its process's, see `Group`). */
export interface Variant {
  name: string;
  sockets: boolean;
  webhook: boolean;
  streams: boolean;
  /** Also replay a delivery's writes (TTL and sharding, which no switch takes out). */
  detailed: boolean;
}

/** Variants run one after another in one process: those that differ only in what the bench switches. */
export interface Group {
  variants: Variant[];
  /** Per variant: whole bulk requests of `eventsPerRequest`. */
  events: number;
  eventsPerRequest: number;
  subscribers: number;
  consumerConcurrency: number;
  /** The smoke run's: the parent's emulators, not a DynamoDB Local and fauxqs of this process's own. */
  emulators?: SharedEmulators;
}

export interface VariantResult {
  name: string;
  events: number;
  deliveredPerSec: number;
  seconds: number;
  cpuMsPerDelivery: number | undefined;
  coresUsed: { node: number; dynamoDbLocal: number | undefined };
  /** PutItem/s (32 in flight) right before and after the timed run, in this process's DynamoDB Local. */
  floorPutsPerSec: number;
  perDelivery: Cost;
  sqsPerDelivery: EndToEndResult['sqsPerDelivery'];
  consumers: EndToEndResult['consumers'];
  webhookPostsPerDelivery: number;
  framesPerDelivery: number;
  /** The API rate-limit check alone (one per API request; a bulk request carries `eventsPerRequest` events). */
  rateLimitCheckMs: number;
  cost: CostResult;
  /** Requests and capacity units per delivery, counted on a run of their own (capacity asked for)... */
  countedPerDelivery: Cost;
  /** ...of this many events. */
  countedEvents: number;
  replay?: ReplayVariants;
  /** The socket push with nothing around it (bench/push-alone.ts): variants with sockets and `detailed`. */
  pushAlone?: PushAlone;
  /** A webhook event's delivery with nothing around it (bench/webhook-alone.ts): variants with the endpoint and `detailed`. */
  webhookAlone?: WebhookAlone;
}

/** Around each variant's timed run: its warm-up and counted runs, floor probes, rate-limit checks, replay. */
const AROUND = SMOKE
  ? { warmRequests: 1, countedRequests: 1, floorPuts: 100, rateLimitChecks: 10, replayDeliveries: 30, aloneCalls: 30 }
  : { warmRequests: 2, countedRequests: 2, floorPuts: 500, rateLimitChecks: 100, replayDeliveries: 300, aloneCalls: 1000 };

const step = (what: string) => {
  if (process.env.BENCH_VARIANT_VERBOSE === '1') console.error(`[variant ${new Date().toISOString().slice(11, 19)}] ${what}`);
};

async function run(group: Group): Promise<VariantResult[]> {
  const streams = group.variants.some((v) => v.streams || v.webhook);
  const bench = await startBench({
    consumerConcurrency: group.consumerConcurrency,
    streams,
    ...(group.emulators && { emulators: group.emulators }),
  });
  const hook = group.variants.some((v) => v.webhook) ? await startWebhookReceiver() : undefined;
  let sockets: WebSocket[] = [];
  try {
    const { dev } = await benchOrganization();
    const call = bench.api(dev.apiKey);
    const workflow = await createInAppWorkflow(call, 'comment-posted');
    // Subscribers that hold sockets, and others that never opened one (their profile says none may be open).
    const withSockets = await seedSubscribers(
      dev.scope,
      Array.from({ length: group.subscribers }, (_, i) => `sub-${i}`),
    );
    const withoutSockets = await seedSubscribers(
      dev.scope,
      Array.from({ length: group.subscribers }, (_, i) => `quiet-${i}`),
    );
    const endpoint = hook
      ? await expectStatus(
          call('POST', '/v2/webhooks/endpoints', { url: hook.url, eventTypes: [...MESSAGE_EVENTS] }),
          201,
          'webhook endpoint',
        )
      : undefined;
    const endpointId = (endpoint?.body as { _id?: string } | undefined)?._id;
    let frames = 0;
    if (group.variants.some((v) => v.sockets)) sockets = await openSockets(bench.stack.socketUrl!, dev, withSockets, () => frames++);
    const options = { parallel: 2, consumerConcurrency: group.consumerConcurrency, eventsPerRequest: group.eventsPerRequest };
    step('warm');
    // Warm: modules, caches, DynamoDB Local's paths for these items.
    // The smoke run warms only the recipients its variants send to.
    if (!SMOKE || group.variants.some((v) => v.sockets))
      await endToEnd(bench, dev, workflow, withSockets, { ...options, requests: AROUND.warmRequests });
    if (!SMOKE || group.variants.some((v) => !v.sockets))
      await endToEnd(bench, dev, workflow, withoutSockets, { ...options, requests: AROUND.warmRequests });

    const results: VariantResult[] = [];
    let webhookOn = hook !== undefined;
    let streamsOn = streams;
    for (const variant of group.variants) {
      step(variant.name);
      if (streamsOn !== (variant.streams || variant.webhook)) {
        streamsOn = variant.streams || variant.webhook;
        await bench.setStreamConsumers(streamsOn);
      }
      if (endpointId && webhookOn !== variant.webhook) {
        webhookOn = variant.webhook;
        await expectStatus(call('PATCH', `/v2/webhooks/endpoints/${endpointId}`, { enabled: webhookOn }), 200, 'endpoint switch');
      }
      const to = variant.sockets ? withSockets : withoutSockets;
      const counted = await endToEnd(bench, dev, workflow, to, { ...options, requests: AROUND.countedRequests });
      const putsBefore = await putRateNow({ itemBytes: 700, puts: AROUND.floorPuts });
      const postsBefore = hook?.posts() ?? 0;
      frames = 0;
      const cpuBefore = cpuNow();
      const started = performance.now();
      const e2e = await bench.timed(() =>
        endToEnd(bench, dev, workflow, to, { ...options, requests: group.events / group.eventsPerRequest }),
      );
      // Every webhook delivered too (two events per in-app message: sent and delivered), with a bound.
      const deadline = Date.now() + 120_000;
      while (variant.webhook && hook && hook.posts() - postsBefore < 2 * group.events && Date.now() < deadline) await sleep(20);
      const seconds = (performance.now() - started) / 1000;
      const cores = coresUsed(cpuBefore, cpuNow(), seconds);
      const putsAfter = await putRateNow({ itemBytes: 700, puts: AROUND.floorPuts });
      const deliveredPerSec = group.events / seconds;
      const checks: number[] = [];
      for (let i = 0; i < AROUND.rateLimitChecks; i++) {
        const t = performance.now();
        await checkRateLimit(dev.scope, 'trigger', 'bulk');
        checks.push(performance.now() - t);
      }
      results.push({
        name: variant.name,
        events: group.events,
        deliveredPerSec,
        seconds,
        cpuMsPerDelivery: cpuMsPerDelivery(cores, deliveredPerSec),
        coresUsed: cores,
        floorPutsPerSec: (putsBefore + putsAfter) / 2,
        perDelivery: e2e.perDelivery,
        sqsPerDelivery: e2e.sqsPerDelivery,
        consumers: e2e.consumers,
        webhookPostsPerDelivery: ((hook?.posts() ?? 0) - postsBefore) / group.events,
        framesPerDelivery: frames / group.events,
        rateLimitCheckMs: median(checks),
        cost: costPerMillionEvents(counted, group.eventsPerRequest),
        countedPerDelivery: counted.perDelivery,
        countedEvents: counted.events,
        // What no switch takes out, and the push and a webhook event alone: with the stream consumers
        // stopped once for all of them (they would read what these write).
        ...(variant.detailed &&
          (await bench.withoutStreamConsumers(async () => {
            const payload = variant.webhook ? hook?.firstBody() : undefined;
            return {
              replay: await replayVariants(dev, AROUND.replayDeliveries, group.subscribers),
              ...(variant.sockets && {
                pushAlone: await measurePushAlone(
                  dev,
                  withSockets.map((s) => s.subscriberId),
                  AROUND.aloneCalls,
                ),
              }),
              ...(endpointId &&
                payload !== undefined && { webhookAlone: await measureWebhookAlone(dev, endpointId, payload, AROUND.aloneCalls) }),
            };
          }))),
      });
    }
    return results;
  } finally {
    for (const ws of sockets) ws.close();
    hook?.server.close();
    await bench.stop();
  }
}

const group = JSON.parse(process.env.BENCH_VARIANT ?? '{}') as Group;
run(group)
  .then((result) => writeFileSync(process.env.BENCH_VARIANT_OUT!, JSON.stringify(result)))
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
