import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { tableName } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import { dynamo, db } from '#lib/store/client.ts';
import { InsertBatch, insertIfAbsent } from '#lib/store/insert-batch.ts';
import { countsBetween, meterRequests } from '../../bench/request-meter.ts';

// lib/store/insert-batch.ts against DynamoDB Local: the inserts of one batch's records go as one
// BatchExecuteStatement, and each record learns what its own conditional Put would have answered.

const meter = meterRequests(dynamo());
const key = (name: string) => ({ pk: `TEST#INSERTS#${name}`, sk: 'ITEM' });
const stored = async (name: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key(name), ConsistentRead: true }))).Item;

async function counted<T>(run: () => Promise<T>) {
  const before = meter.snapshot();
  const result = await run();
  const counts = countsBetween(before, meter.snapshot());
  return { result, requests: Object.fromEntries(Object.entries(counts).map(([op, c]) => [op, c.requests])) };
}

/** Each item inserted by a record of its own, all records in one batch. */
const inBatch = (items: Record<string, unknown>[]) => {
  const batch = new InsertBatch();
  return Promise.allSettled(items.map((item) => batch.run(() => insertIfAbsent(item))));
};

describe('insertIfAbsent', () => {
  it('writes a batch’s new items in one request, and leaves an existing item as it was', async () => {
    const names = Array.from({ length: 6 }, () => newId());
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...key(names[0]!), n: 'first' } }));

    const { result, requests } = await counted(() =>
      inBatch(names.map((name, i) => ({ ...key(name), n: i, nothing: null, nested: { list: [i, 'x'] }, skipped: undefined }))),
    );
    expect(requests).toEqual({ BatchExecuteStatement: 1 });
    expect(result.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual([false, true, true, true, true, true]);
    expect(await stored(names[0]!)).toEqual({ ...key(names[0]!), n: 'first' });
    expect(await stored(names[3]!)).toEqual({ ...key(names[3]!), n: 3, nothing: null, nested: { list: [3, 'x'] } });
  });

  it('writes one key asked for twice once, and answers the second as taken', async () => {
    const name = newId();
    const other = newId();
    const { result } = await counted(() => inBatch([{ ...key(name), n: 1 }, { ...key(other) }, { ...key(name), n: 2 }]));
    expect(result.map((r) => r.status === 'fulfilled' && r.value)).toEqual([true, true, false]);
    expect(await stored(name)).toMatchObject({ n: 1 });
  });

  it('fails only the record whose item is refused, and writes alone as a conditional Put', async () => {
    const names = [newId(), newId()];
    const refused = { ...key(newId()), big: 'x'.repeat(410 * 1024) };
    const results = await inBatch([{ ...key(names[0]!) }, refused, { ...key(names[1]!) }]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stored(names[1]!)).toBeDefined();

    const alone = newId();
    const first = await counted(() => insertIfAbsent({ ...key(alone), n: 1 }));
    expect(first).toEqual({ result: true, requests: { PutItem: 1 } });
    const second = await counted(() => insertIfAbsent({ ...key(alone), n: 2 }));
    expect(second.result).toBe(false);
    expect(await stored(alone)).toMatchObject({ n: 1 });
  });
});
