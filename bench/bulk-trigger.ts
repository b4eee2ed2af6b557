import type { Subscriber } from '#lib/subscribers/model.ts';
import type { Bench } from './harness.ts';
import { SMOKE } from './results-path.ts';
import { bulkBody, costOf, expectStatus, type Cost, type WorkflowRef } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';
import { median, percentile } from './stats.ts';
import { n, table } from './table.ts';

// Section 2: a bulk trigger request's handler time, the consumers paused, against writing as many
// items with raw BatchWriteItem requests (the floor's client), measured right after.

export interface BulkTriggerResult {
  requests: number;
  eventsPerRequest: number;
  handlerMs: { p50: number; p99: number };
  rawBatchWriteMs: { sequential: number; concurrent: number };
  ratio: number;
  perRequest: Cost;
}

export async function bulkTrigger(
  bench: Bench,
  env: BenchEnv,
  workflow: WorkflowRef,
  subscribers: readonly Subscriber[],
  rawBatchWriteMs: (n: number) => Promise<{ sequential: number; concurrent: number }>,
  requests: number,
): Promise<BulkTriggerResult> {
  const call = bench.api(env.apiKey);
  const ids = subscribers.slice(0, 100).map((s) => s.subscriberId);
  // The handler alone: consumers wait, so they take no CPU from it.
  await bench.setConsumerConcurrency(0);
  // Warm: the handler's module and caches (the smoke run: one request; its events are delivered after).
  for (let i = 0; i < (SMOKE ? 1 : 5); i++) await call('POST', '/v1/events/trigger/bulk', bulkBody(workflow.workflowId, ids, `warm${i}`));
  const send = async (tag: string) => {
    const r = await expectStatus(call('POST', '/v1/events/trigger/bulk', bulkBody(workflow.workflowId, ids, tag)), 201, 'bulk trigger');
    const events = r.body as { status: string }[];
    if (events.some((e) => e.status !== 'processed')) throw new Error(`bulk trigger: ${JSON.stringify(events[0])}`);
    return r.ms;
  };
  const times: number[] = [];
  // Nor do the table's stream consumers run: the engagement consumer would count each stored
  // trigger (markers, in transactions) inside the timed window, as much as its pace lands there.
  // Their restart passes over these triggers: only their counts are lost, the messages come later.
  const { diff, counted } = await bench.withoutStreamConsumers(async () => {
    await bench.timed(async () => {
      for (let i = 0; i < requests; i++) times.push(await send(`bulk${i}`));
    });
    // What a request costs, counted on requests of their own (capacity asked for).
    const counted = Math.min(5, requests);
    const before = bench.snapshot();
    for (let i = 0; i < counted; i++) await send(`bulk-counted${i}`);
    return { diff: bench.since(before), counted };
  });
  const raw = await rawBatchWriteMs(100);
  const p50 = median(times);
  return {
    requests,
    eventsPerRequest: 100,
    handlerMs: { p50, p99: percentile(times, 99) },
    rawBatchWriteMs: raw,
    ratio: p50 / raw.sequential,
    perRequest: costOf(diff.dynamo, counted),
  };
}

export function printBulkTrigger(b: BulkTriggerResult): void {
  table(
    '2. Bulk trigger (100 events, one-step in-app)',
    ['measure', 'value'],
    [
      ['handler p50 / p99 ms', `${n(b.handlerMs.p50)} / ${n(b.handlerMs.p99)}`],
      [
        'raw BatchWriteItem of 100 items ms (4 in a row / 4 at once)',
        `${n(b.rawBatchWriteMs.sequential)} / ${n(b.rawBatchWriteMs.concurrent)}`,
      ],
      ['ratio (handler p50 ÷ 4 in a row)', b.ratio],
      [
        'DynamoDB requests per call',
        `${n(b.perRequest.requests)} (${Object.entries(b.perRequest.byOperation)
          .map(([k, v]) => `${k} ${n(v)}`)
          .join(', ')})`,
      ],
    ],
  );
}
