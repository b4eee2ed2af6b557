import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { tableName } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import { dynamo, db } from '#lib/store/client.ts';
import { getItem } from '#lib/store/get-item.ts';
import { countsBetween, meterRequests } from '../../bench/request-meter.ts';

// lib/store/get-item.ts against DynamoDB Local: reads asked for together go as one BatchGetItem,
// and each caller gets what its own GetItem would have answered.

const meter = meterRequests(dynamo());
const key = (name: string) => ({ pk: `TEST#BATCHED#${name}`, sk: 'ITEM' });

async function counted<T>(run: () => Promise<T>) {
  const before = meter.snapshot();
  const result = await run();
  const counts = countsBetween(before, meter.snapshot());
  return { result, requests: Object.fromEntries(Object.entries(counts).map(([op, c]) => [op, c.requests])) };
}

describe('getItem', () => {
  it('sends the reads asked for together as one BatchGetItem, and answers each as GetItem would', async () => {
    const names = Array.from({ length: 12 }, () => newId());
    await Promise.all(
      names.map((name, i) => db().send(new PutCommand({ TableName: tableName(), Item: { ...key(name), n: i, nested: { list: [i] } } }))),
    );
    const missing = key(newId());

    const { result, requests } = await counted(() =>
      Promise.all([
        ...names.map((name) => getItem(key(name), { consistent: true })),
        getItem(missing, { consistent: true }),
        getItem(key(names[0]!), { consistent: true }),
      ]),
    );
    expect(requests).toEqual({ BatchGetItem: 1 });
    const alone = await Promise.all(
      [...names, undefined, names[0]].map(async (name) =>
        name ? (await db().send(new GetCommand({ TableName: tableName(), Key: key(name), ConsistentRead: true }))).Item : undefined,
      ),
    );
    expect(result).toEqual(alone);
    // Two callers of one key do not share an object.
    expect(result[13]).toEqual(result[0]);
    expect(result[13]).not.toBe(result[0]);
  });

  it('keeps consistent and eventual reads apart, and sends a read alone as GetItem', async () => {
    const name = newId();
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...key(name), n: 1 } }));
    const alone = await counted(() => getItem(key(name), { consistent: true }));
    expect(alone.requests).toEqual({ GetItem: 1 });
    expect(alone.result).toMatchObject({ n: 1 });

    const mixed = await counted(() => Promise.all([getItem(key(name), { consistent: true }), getItem(key(name)), getItem(key(newId()))]));
    expect(mixed.requests).toEqual({ GetItem: 1, BatchGetItem: 1 });
    expect(mixed.result.map((item) => item?.n)).toEqual([1, 1, undefined]);
  });

  it('fails only the read that fails when they were sent together', async () => {
    const name = newId();
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...key(name), n: 1 } }));
    // A key DynamoDB refuses (over 2 KB): the batched request fails, and each read is made alone.
    const results = await Promise.allSettled([
      getItem(key(name), { consistent: true }),
      getItem(key('x'.repeat(3000)), { consistent: true }),
      getItem(key(newId()), { consistent: true }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseFulfilledResult<Record<string, unknown>>).value).toMatchObject({ n: 1 });
  });
});
