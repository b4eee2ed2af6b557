import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, expect, it, vi } from 'vitest';
import { startStreamPoller, type StreamConsumer, type StreamPoller } from '#infra/local/stream-poller.ts';
import type { StreamConsumerDef } from '#infra/streams.ts';
import { tableName } from '#lib/config.ts';
import { db, dynamo } from '#lib/store/client.ts';
import { rand } from '../support/pipeline.ts';

// The local runtime hands a stream consumer its records as the deployed event source mapping
// does (bisectBatchOnError): a record its consumer keeps failing on holds back only itself. Before,
// the whole batch was retried and then skipped, and the engagement counts of every other record in
// it (other tests' organizations included) were lost. One reader serves every consumer of the
// table's stream, each draining its own queue.

const pollers: StreamPoller[] = [];
afterAll(() => Promise.all(pollers.map((poller) => poller.stop())));

/** A poller of the run's table for these consumers, stopped after the file. */
async function pollerFor(consumers: StreamConsumer[]): Promise<void> {
  pollers.push(
    await startStreamPoller({
      dynamo: dynamo(),
      ...(process.env.AWS_ENDPOINT_URL_DYNAMODB && { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
      tableName: tableName(),
      consumers,
    }),
  );
}

/** A consumer of the records whose sort key begins with one of `prefixes`. */
const probe = (name: string, prefixes: string[]): StreamConsumerDef => ({
  name,
  consumer: 'none',
  sends: [],
  batchSize: 100,
  filters: prefixes.map((prefix) => ({ prefix })),
});

const sortKeys = (event: DynamoDBStreamEvent) => event.Records.map((r) => r.dynamodb?.Keys?.sk?.S ?? '');

/** Items with these sort keys, written in one request: their records arrive in one read. */
const put = (pk: string, sks: string[]) =>
  db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: sks.map((sk) => ({ PutRequest: { Item: { pk, sk } } })) } }));

it('splits a failing batch until the record that keeps failing is alone, hands over the others in order, and skips only it', async () => {
  const prefix = `PROBE-${rand()}#`;
  const handled: string[] = [];
  const errors: string[] = [];
  await pollerFor([
    {
      def: probe('probe', [prefix]),
      handler: async (event: DynamoDBStreamEvent) => {
        const sks = sortKeys(event);
        if (sks.some((sk) => sk.endsWith('poison'))) throw new Error('this record cannot be handled');
        handled.push(...sks);
        return { batchItemFailures: [] };
      },
      onError: (error) => errors.push((error as Error).message),
      retryAttempts: 1,
    },
  ]);
  const sks = ['1', '2', '3', 'poison', '4', '5', '6'].map((n) => `${prefix}${n}`);
  // One request, so one batch.
  await put(`${prefix}pk`, sks);
  await vi.waitFor(() => expect(handled).toHaveLength(6), { timeout: 30_000, interval: 100 });
  expect(handled).toEqual(sks.filter((sk) => !sk.endsWith('poison')));
  expect(errors.filter((e) => e.startsWith('probe: skipped'))).toEqual(['probe: skipped 1 stream record(s) after 1 retries']);
});

it('hands each consumer of one reader the records its filter passes, in order, and one that is stuck holds back only itself', async () => {
  const prefix = `PROBE-${rand()}#`;
  const fast: string[] = [];
  const slow: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await pollerFor([
    {
      def: probe('fast', [`${prefix}a`, `${prefix}both`]),
      handler: async (event: DynamoDBStreamEvent) => {
        fast.push(...sortKeys(event));
      },
    },
    {
      def: probe('slow', [`${prefix}b`, `${prefix}both`]),
      handler: async (event: DynamoDBStreamEvent) => {
        await released;
        slow.push(...sortKeys(event));
      },
    },
  ]);
  const wait = { timeout: 30_000, interval: 100 };
  try {
    await put(`${prefix}pk`, [`${prefix}a1`, `${prefix}b1`, `${prefix}both1`]);
    await vi.waitFor(() => expect(fast).toEqual([`${prefix}a1`, `${prefix}both1`]), wait);
    // The slow consumer is still inside its first batch; the fast one goes on without it.
    await put(`${prefix}pk`, [`${prefix}a2`, `${prefix}both2`]);
    await vi.waitFor(() => expect(fast).toEqual([`${prefix}a1`, `${prefix}both1`, `${prefix}a2`, `${prefix}both2`]), wait);
    expect(slow).toEqual([]);
    release();
    await vi.waitFor(() => expect(slow).toEqual([`${prefix}b1`, `${prefix}both1`, `${prefix}both2`]), wait);
  } finally {
    // Its poller stops after the file only once the stuck batch is let go.
    release();
  }
});
