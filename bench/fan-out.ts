import { performance } from 'node:perf_hooks';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { probeDb } from './own-client.ts';
import { keys } from '#lib/store/keys.ts';
import type { EnvScope } from '#lib/scope.ts';
import type { Bench } from './harness.ts';
import { costOf, countMessages, expectStatus, type Cost, type WorkflowRef } from './scenarios.ts';
import { seedSubscribers, seedTopic, type BenchEnv } from './seed.ts';

// Large audiences (the fan-out): one trigger to a topic of `size` members, seeded straight into
// the table. Measured from the trigger's request: the first member's inbox message stored (the
// walk's first segment, delivered by the walk itself), and the pipeline idle again (every
// member delivered); deliveries per second over the whole; DynamoDB and SQS requests per delivery.

export interface LargeTopicResult {
  members: number;
  firstMessageMs: number;
  allDeliveredMs: number;
  deliveriesPerSec: number;
  perDelivery: Cost;
  sqsMessagesPerDelivery: number;
  /** Batches of the events consumer (the walk and its segments) and their records. */
  eventBatches: number;
  eventRecords: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the subscriber has an inbox message yet (one Query of its partition). */
export async function hasMessage(scope: EnvScope, subscriberId: string): Promise<boolean> {
  const { pk, skPrefix } = keys.messagesOfSubscriber(scope, subscriberId);
  const page = await probeDb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
      Limit: 1,
    }),
  );
  return (page.Items?.length ?? 0) > 0;
}

export async function largeTopic(
  bench: Bench,
  env: BenchEnv,
  workflow: WorkflowRef,
  members: number,
  consumerConcurrency: number,
): Promise<LargeTopicResult> {
  const key = `audience-${members}`;
  // Zero-padded, so the walk (members in subscriberId order) starts with member 0.
  const ids = Array.from({ length: members }, (_, i) => `${key}-${String(i).padStart(7, '0')}`);
  await seedTopic(env.scope, key, await seedSubscribers(env.scope, ids));
  await bench.idle();
  await bench.setConsumerConcurrency(consumerConcurrency);
  const call = bench.api(env.apiKey);
  const messagesBefore = await countMessages(env);

  const before = bench.snapshot();
  const started = performance.now();
  await expectStatus(
    call('POST', '/v1/events/trigger', {
      name: workflow.workflowId,
      to: [{ type: 'Topic', topicKey: key }],
      payload: { author: 'Ann', comment: 'To all' },
    }),
    201,
    'topic trigger',
  );
  // Polled every 10 ms: a few dozen reads against the deliveries' hundreds of thousands.
  while (!(await hasMessage(env.scope, ids[0]!))) {
    if (performance.now() - started > 120_000) throw new Error(`large topic ${members}: no first message within 2 minutes`);
    await sleep(10);
  }
  const firstAt = performance.now();
  await bench.idle(1_800_000);
  const doneAt = performance.now();
  const diff = bench.since(before);
  const delivered = (await countMessages(env)) - messagesBefore;
  if (delivered !== members) throw new Error(`large topic ${members}: ${delivered} messages`);
  // The walk runs from the `events` queue, the segments it hands on from `bulk` (infra/queues.ts).
  const events = [diff.consumers.events, diff.consumers.bulk].reduce(
    (sum, c) => ({ batches: sum.batches + (c?.batches ?? 0), records: sum.records + (c?.records ?? 0) }),
    { batches: 0, records: 0 },
  );
  return {
    members,
    firstMessageMs: firstAt - started,
    allDeliveredMs: doneAt - started,
    deliveriesPerSec: members / ((doneAt - started) / 1000),
    perDelivery: costOf(diff.dynamo, members),
    sqsMessagesPerDelivery: diff.sqs.messagesSent / members,
    eventBatches: events.batches,
    eventRecords: events.records,
  };
}
