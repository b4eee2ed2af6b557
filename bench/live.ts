import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { signSessionToken } from '#lib/auth/session-token.ts';
import { dynamo } from '#lib/store/client.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import type { Bench } from './harness.ts';
import { costOf, expectStatus, type Cost, type WorkflowRef } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';
import { median, percentile } from './stats.ts';

// Live updates under a sustained load (issue 7): every subscriber has its inbox socket open (a
// `ws` client, as `@novu/js` opens it in PartySocket mode), single triggers go out at a fixed
// rate, and each event is timed twice from the moment its trigger is sent: until its in-app
// message is stored (the PutItem of the message returns, seen by a middleware on the service's
// own DynamoDB client, so no read is added) and until `notification_received` arrives on the
// socket. Both in the same run, so the difference is what the live push adds to storing.

export interface LiveResult {
  subscribers: number;
  targetPerSec: number;
  seconds: number;
  /** From the first trigger until the last frame arrived (or the wait ended). */
  elapsedSeconds: number;
  events: number;
  /** Triggers sent per second, as achieved (the target when the machine keeps up). */
  sentPerSec: number;
  storedMs: { p50: number; p99: number };
  receivedMs: { p50: number; p99: number };
  /** Per event: received − stored, p50 (the push's own share). */
  pushAfterStoreMs: { p50: number; p99: number };
  /** Events whose frame never arrived within the wait. */
  missing: number;
  /** DynamoDB per event: its delivery and its push (the live consumer's reads) together. */
  perEvent: Cost;
  liveConsumer: { batches: number; recordsPerBatch: number; msPerBatch: number };
  framesPerEvent: number;
}

interface Timing {
  sent: number;
  stored?: number;
  received?: number;
}

/** Records when each message PutItem of the run returns, by transactionId. */
function watchMessageWrites(timings: Map<string, Timing>): () => void {
  const client = dynamo();
  const name = `benchLiveStored${Date.now()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const command = (context as { commandName?: string }).commandName;
      if (command === 'PutCommand' || command === 'PutItemCommand') {
        // Plain values or, once the document client has marshalled them, {S: …}.
        const item = (args.input as { Item?: Record<string, unknown> }).Item ?? {};
        const text = (value: unknown) => (typeof value === 'string' ? value : ((value as { S?: string } | undefined)?.S ?? ''));
        const timing = text(item.sk).startsWith('MSG#') ? timings.get(text(item.transactionId)) : undefined;
        if (timing && timing.stored === undefined) timing.stored = performance.now();
      }
      return result;
    },
    { step: 'initialize', name },
  );
  return () => client.middlewareStack.remove(name);
}

const CLIENT_PING_MS = 25_000;

export async function openSockets(
  socketUrl: string,
  env: BenchEnv,
  subscribers: readonly Subscriber[],
  onFrame: (text: string, at: number) => void,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (const s of subscribers) {
    const token = await signSessionToken({ ...env.scope, subscriberId: s.subscriberId, subscriberDbId: s._id, contextKeys: [] });
    const url = new URL(socketUrl);
    url.searchParams.set('token', token);
    const ws = new WebSocket(url.toString());
    ws.on('message', (data) => onFrame(data.toString(), performance.now()));
    // As @novu/js does: a `ping` every 25 s keeps the socket API's 10-minute idle timeout away (a
    // long section's sockets were closed by it, and its later deliveries had nothing to push to).
    const heartbeat = setInterval(() => ws.send('ping'), CLIENT_PING_MS);
    ws.once('close', () => clearInterval(heartbeat));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    sockets.push(ws);
  }
  return sockets;
}

export async function liveUnderLoad(
  bench: Bench,
  env: BenchEnv,
  workflow: WorkflowRef,
  subscribers: readonly Subscriber[],
  options: { perSecond: number; seconds: number; consumerConcurrency: number; maxInFlight?: number; sockets?: boolean },
): Promise<LiveResult> {
  const call = bench.api(env.apiKey);
  const timings = new Map<string, Timing>();
  let frames = 0;
  // Without sockets: the same load to subscribers that never opened one (nothing is announced),
  // so the two runs' difference is what live updates cost.
  const sockets =
    options.sockets === false
      ? []
      : await openSockets(bench.stack.socketUrl!, env, subscribers, (text, at) => {
          frames++;
          if (!text.startsWith('{"event":"notification_received"')) return;
          const txid = /"transactionId":"([^"]+)"/.exec(text)?.[1];
          const timing = txid ? timings.get(txid) : undefined;
          if (timing && timing.received === undefined) timing.received = at;
        });
  const unwatch = watchMessageWrites(timings);
  try {
    await bench.idle();
    await bench.setConsumerConcurrency(options.consumerConcurrency);
    // Warm: the handler modules, the consumers' caches, a push of each kind.
    for (let i = 0; i < 5; i++)
      await expectStatus(
        call('POST', '/v1/events/trigger', {
          name: workflow.workflowId,
          to: subscribers[i]!.subscriberId,
          payload: { author: 'Bob', comment: 'warm' },
        }),
        201,
        'trigger',
      );
    await bench.idle();
    frames = 0;

    const before = bench.snapshot();
    const total = Math.round(options.perSecond * options.seconds);
    const interval = 1000 / options.perSecond;
    const maxInFlight = options.maxInFlight ?? 64;
    let inFlight = 0;
    const started = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      // On schedule: event i leaves at started + i·interval, or as soon as it can after.
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      while (inFlight >= maxInFlight) await sleep(1);
      const transactionId = `live-${i}-${started.toFixed(0)}`;
      const subscriber = subscribers[i % subscribers.length]!;
      timings.set(transactionId, { sent: performance.now() });
      inFlight++;
      sends.push(
        expectStatus(
          call('POST', '/v1/events/trigger', {
            name: workflow.workflowId,
            to: subscriber.subscriberId,
            transactionId,
            payload: { author: 'Bob', comment: `live ${i}` },
          }),
          201,
          'trigger',
        ).finally(() => inFlight--),
      );
    }
    await Promise.all(sends);
    const sentAt = performance.now();
    // Every frame in, with a bound (the queues drain first).
    await bench.idle(600_000);
    const deadline = performance.now() + 30_000;
    while (options.sockets !== false && [...timings.values()].some((t) => t.received === undefined) && performance.now() < deadline)
      await sleep(50);
    const diff = bench.since(before);
    const elapsedSeconds = (performance.now() - started) / 1000;

    const all = [...timings.values()];
    const stored = all.filter((t) => t.stored !== undefined).map((t) => t.stored! - t.sent);
    const received = all.filter((t) => t.received !== undefined).map((t) => t.received! - t.sent);
    const after = all.filter((t) => t.received !== undefined && t.stored !== undefined).map((t) => t.received! - t.stored!);
    const live = diff.consumers.live ?? { batches: 0, records: 0, failed: 0, ms: 0 };
    return {
      subscribers: subscribers.length,
      targetPerSec: options.perSecond,
      seconds: options.seconds,
      elapsedSeconds,
      events: total,
      sentPerSec: total / ((sentAt - started) / 1000),
      storedMs: { p50: median(stored), p99: percentile(stored, 99) },
      receivedMs: { p50: median(received), p99: percentile(received, 99) },
      pushAfterStoreMs: { p50: median(after), p99: percentile(after, 99) },
      missing: options.sockets === false ? 0 : all.filter((t) => t.received === undefined).length,
      perEvent: costOf(diff.dynamo, total),
      liveConsumer: {
        batches: live.batches,
        recordsPerBatch: live.records / Math.max(1, live.batches),
        msPerBatch: live.ms / Math.max(1, live.batches),
      },
      framesPerEvent: frames / total,
    };
  } finally {
    unwatch();
    for (const ws of sockets) ws.close();
  }
}
