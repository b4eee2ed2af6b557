import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';

// What repositories of whole records (workflows, layouts) share: the lookup of a record by its
// alternate key on an index, and the record out of its stored item.

/** The item an index partition holds (a record found by its database id, one item per partition). */
export async function firstOfIndex(index: 'gsi1' | 'gsi2', partitionKey: string): Promise<Record<string, unknown> | undefined> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': partitionKey },
      Limit: 1,
    }),
  );
  return Items[0];
}

/** The stored record: the item without its table and index keys and its item type. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, type: _t, ...record } = item;
  return record as T;
}
