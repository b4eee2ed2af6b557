import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, expect, it, vi } from 'vitest';
import { startStreamPoller, type StreamPoller } from '#infra/local/stream-poller.ts';
import { tableName } from '#lib/config.ts';
import { db, dynamo } from '#lib/store/client.ts';
import { rand } from '../support/pipeline.ts';

// The local runtime hands a stream consumer its records as the deployed event source mapping
// does (bisectBatchOnError): a record its consumer keeps failing on holds back only itself. Before,
// the whole batch was retried and then skipped, and the engagement counts of every other record in
// it (other tests' organizations included) were lost.

let poller: StreamPoller | undefined;
afterAll(() => poller?.stop());

it('splits a failing batch until the record that keeps failing is alone, hands over the others in order, and skips only it', async () => {
  const prefix = `PROBE-${rand()}#`;
  const handled: string[] = [];
  const errors: string[] = [];
  poller = await startStreamPoller({
    dynamo: dynamo(),
    ...(process.env.AWS_ENDPOINT_URL_DYNAMODB && { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
    tableName: tableName(),
    consumers: [
      {
        def: { name: 'probe', consumer: 'none', sends: [], batchSize: 100, filters: [{ prefix }] },
        handler: async (event: DynamoDBStreamEvent) => {
          const sks = event.Records.map((r) => r.dynamodb?.Keys?.sk?.S ?? '');
          if (sks.some((sk) => sk.endsWith('poison'))) throw new Error('this record cannot be handled');
          handled.push(...sks);
          return { batchItemFailures: [] };
        },
        onError: (error) => errors.push((error as Error).message),
        retryAttempts: 1,
      },
    ],
  });
  const sks = ['1', '2', '3', 'poison', '4', '5', '6'].map((n) => `${prefix}${n}`);
  // One request: the records arrive in one read, so they are one batch.
  await db().send(
    new BatchWriteCommand({ RequestItems: { [tableName()]: sks.map((sk) => ({ PutRequest: { Item: { pk: `${prefix}pk`, sk } } })) } }),
  );
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
  const sharedPoller = await startStreamPoller({
    dynamo: dynamo(),
    ...(process.env.AWS_ENDPOINT_URL_DYNAMODB && { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
    tableName: tableName(),
    consumers: [
      {
        def: {
          name: 'fast',
          consumer: 'none',
          sends: [],
          batchSize: 100,
          filters: [{ prefix: `${prefix}a` }, { prefix: `${prefix}both` }],
        },
        handler: async (event: DynamoDBStreamEvent) => {
          fast.push(...event.Records.map((r) => r.dynamodb?.Keys?.sk?.S ?? ''));
        },
      },
      {
        def: {
          name: 'slow',
          consumer: 'none',
          sends: [],
          batchSize: 100,
          filters: [{ prefix: `${prefix}b` }, { prefix: `${prefix}both` }],
        },
        handler: async (event: DynamoDBStreamEvent) => {
          await released;
          slow.push(...event.Records.map((r) => r.dynamodb?.Keys?.sk?.S ?? ''));
        },
      },
    ],
  });
  try {
    const put = (sks: string[]) =>
      db().send(
        new BatchWriteCommand({
          RequestItems: { [tableName()]: sks.map((sk) => ({ PutRequest: { Item: { pk: `${prefix}pk`, sk } } })) },
        }),
      );
    await put([`${prefix}a1`, `${prefix}b1`, `${prefix}both1`]);
    await vi.waitFor(() => expect(fast).toEqual([`${prefix}a1`, `${prefix}both1`]), { timeout: 30_000, interval: 100 });
    // The slow consumer is still inside its first batch; the fast one goes on without it.
    await put([`${prefix}a2`, `${prefix}both2`]);
    await vi.waitFor(() => expect(fast).toEqual([`${prefix}a1`, `${prefix}both1`, `${prefix}a2`, `${prefix}both2`]), {
      timeout: 30_000,
      interval: 100,
    });
    expect(slow).toEqual([]);
    release();
    await vi.waitFor(() => expect(slow).toEqual([`${prefix}b1`, `${prefix}both1`, `${prefix}both2`]), { timeout: 30_000, interval: 100 });
  } finally {
    release();
    await sharedPoller.stop();
  }
});
