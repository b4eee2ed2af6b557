import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import { mapConcurrently } from '#lib/concurrency.ts';
import { rawDocumentClient } from './own-client.ts';
import { median, round } from './stats.ts';
import { table } from './table.ts';

// The floor: what DynamoDB Local itself sustains on this machine, with plain requests from a
// client of their own (not counted with the service's). Items are the size of a trigger claim.

export interface Floor {
  itemBytes: number;
  putSequentialPerSec: number;
  putConcurrent32PerSec: number;
  batchWriteSequentialItemsPerSec: number;
  batchWriteConcurrent32ItemsPerSec: number;
  /** Writing `n` items as BatchWriteItem requests of 25, one after the other / all at once (median ms). */
  batchWriteMs: (n: number) => Promise<{ sequential: number; concurrent: number }>;
}

const BATCH = 25;

export function rawItem(padding: string) {
  const id = newId();
  return { pk: `BENCH#RAW#${id}`, sk: 'EVENT', type: 'Raw', transactionId: id, payload: padding, createdAt: new Date().toISOString() };
}

function rawWriter(itemBytes: number) {
  const client = rawDocumentClient();
  const TableName = tableName();
  const padding = 'x'.repeat(Math.max(0, itemBytes - 120));
  return { client, TableName, padding, put: () => client.send(new PutCommand({ TableName, Item: rawItem(padding) })) };
}

/**
 * One PutItem of an item this size from a client of its own, timed (ms): what any request of the
 * service waits for DynamoDB Local at that moment, whatever the service does.
 */
export function putLatency(itemBytes: number): () => Promise<number> {
  const { put } = rawWriter(itemBytes);
  return async () => {
    const started = performance.now();
    await put();
    return performance.now() - started;
  };
}

async function rate(count: number, concurrency: number, op: () => Promise<unknown>, perOp = 1): Promise<number> {
  const started = performance.now();
  await mapConcurrently(Array.from({ length: count }), concurrency, op);
  return (count * perOp) / ((performance.now() - started) / 1000);
}

/**
 * The PutItem rate (32 in flight) measured again right before or after a timed section: the floor
 * drifts with what else the machine runs (259, 160, 432/s in three runs), so a ratio to a floor
 * taken minutes earlier measures the drift as much as the service.
 */
export async function putRateNow(options: { itemBytes: number; puts: number }): Promise<number> {
  const { put } = rawWriter(options.itemBytes);
  await mapConcurrently(Array.from({ length: 100 }), 32, put);
  return rate(options.puts, 32, put);
}

export async function measureFloor(options: {
  itemBytes: number;
  puts: number;
  concurrentPuts: number;
  batches: number;
  /** Runs each `batchWriteMs` call takes the median of (default 30). */
  batchWriteRuns?: number;
}): Promise<Floor> {
  const { client, TableName, padding, put } = rawWriter(options.itemBytes);
  const batch = (n = BATCH) =>
    client.send(
      new BatchWriteCommand({
        RequestItems: { [TableName]: Array.from({ length: n }, () => ({ PutRequest: { Item: rawItem(padding) } })) },
      }),
    );

  // Warm the connection pool and the JVM first.
  await mapConcurrently(Array.from({ length: 300 }), 32, put);
  await mapConcurrently(Array.from({ length: 40 }), 32, () => batch());

  const putSequentialPerSec = await rate(options.puts, 1, put);
  const putConcurrent32PerSec = await rate(options.concurrentPuts, 32, put);
  const batchWriteSequentialItemsPerSec = await rate(options.batches, 1, () => batch(), BATCH);
  const batchWriteConcurrent32ItemsPerSec = await rate(options.batches * 4, 32, () => batch(), BATCH);

  const batchWriteMs = async (n: number) => {
    const sizes = Array.from({ length: Math.ceil(n / BATCH) }, (_, i) => Math.min(BATCH, n - i * BATCH));
    const sequential: number[] = [];
    const concurrent: number[] = [];
    for (let run = 0; run < (options.batchWriteRuns ?? 30); run++) {
      let started = performance.now();
      for (const size of sizes) await batch(size);
      sequential.push(performance.now() - started);
      started = performance.now();
      await Promise.all(sizes.map((size) => batch(size)));
      concurrent.push(performance.now() - started);
    }
    return { sequential: median(sequential), concurrent: median(concurrent) };
  };

  return {
    itemBytes: options.itemBytes,
    putSequentialPerSec,
    putConcurrent32PerSec,
    batchWriteSequentialItemsPerSec,
    batchWriteConcurrent32ItemsPerSec,
    batchWriteMs,
  };
}

/** The floor as results.json holds it: rates rounded to whole items per second. */
export interface FloorResult {
  itemBytes: number;
  putItemPerSec: { sequential: number; concurrent32: number };
  batchWriteItemsPerSec: { sequential: number; concurrent32: number };
}

export const floorResult = (floor: Floor): FloorResult => ({
  itemBytes: floor.itemBytes,
  putItemPerSec: { sequential: round(floor.putSequentialPerSec, 0), concurrent32: round(floor.putConcurrent32PerSec, 0) },
  batchWriteItemsPerSec: {
    sequential: round(floor.batchWriteSequentialItemsPerSec, 0),
    concurrent32: round(floor.batchWriteConcurrent32ItemsPerSec, 0),
  },
});

export function printFloor(f: FloorResult): void {
  table(
    '1. Floor (DynamoDB Local, this machine)',
    ['operation', 'sequential', '32 at once'],
    [
      ['PutItem / s', f.putItemPerSec.sequential, f.putItemPerSec.concurrent32],
      ['BatchWriteItem items / s', f.batchWriteItemsPerSec.sequential, f.batchWriteItemsPerSec.concurrent32],
    ],
  );
}
