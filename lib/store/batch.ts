import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand, BatchWriteCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import { mapConcurrently } from '../concurrency.ts';
import type { Key } from './keys.ts';

// BatchGetItem and BatchWriteItem in the chunk sizes DynamoDB allows, retrying what it leaves
// unprocessed (under throttling it may process only part of a batch without failing it).

const GET_CHUNK = 100;
const WRITE_CHUNK = 25;
const MAX_ROUNDS = 8;

/** The items found for `keys` (in no particular order); missing keys are simply absent. */
export async function batchGet(
  keys: readonly Key[],
  projection?: string[],
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const names = projection && Object.fromEntries(projection.map((p, i) => [`#p${i}`, p]));
  for (let i = 0; i < keys.length; i += GET_CHUNK) {
    let pending: Record<string, unknown>[] | undefined = dedupe(keys.slice(i, i + GET_CHUNK));
    for (let round = 0; pending && pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new Error('BatchGetItem left keys unprocessed');
      if (round > 0) await backoff(round);
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: pending,
              ...(options.consistent && { ConsistentRead: true }),
              ...(names && { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names }),
            },
          },
        }),
      );
      out.push(...(result.Responses?.[tableName()] ?? []));
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return out;
}

/** `concurrency`: requests (of 25 items) in flight at once. */
export function batchPut(items: readonly Record<string, unknown>[], options: { concurrency?: number } = {}): Promise<void> {
  return batchWrite(
    items.map((Item) => ({ PutRequest: { Item } })),
    options.concurrency ?? 1,
  );
}

export function batchDelete(keys: readonly Key[]): Promise<void> {
  return batchWrite(dedupe(keys).map((Key) => ({ DeleteRequest: { Key } })));
}

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

async function batchWrite(requests: WriteRequest[], concurrency = 1): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += WRITE_CHUNK) chunks.push(requests.slice(i, i + WRITE_CHUNK));
  await mapConcurrently(chunks, concurrency, async (chunk) => {
    let pending: WriteRequest[] | undefined = chunk;
    for (let round = 0; pending && pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new Error('BatchWriteItem left items unprocessed');
      if (round > 0) await backoff(round);
      const { UnprocessedItems } = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = UnprocessedItems?.[tableName()] as WriteRequest[] | undefined;
    }
  });
}

/** A batch may not name the same key twice. */
function dedupe(keys: readonly Key[]): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const key of keys) seen.set(`${key.pk}\n${key.sk}`, { pk: key.pk, sk: key.sk });
  return [...seen.values()];
}

const backoff = (round: number) => sleep(Math.random() * 25 * 2 ** round);
