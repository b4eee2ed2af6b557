import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import { onIndex, withoutKeys } from './index-keys.ts';
import { INDEX } from './table.ts';

// What repositories of whole records (workflows, layouts) share: the lookup of a record by its
// alternate key on an index, and the record out of its stored item.

/** The item an index partition holds (a record found by its database id, one item per partition). */
export async function firstOfIndex(
  index: typeof INDEX.shared1 | typeof INDEX.shared2,
  partitionKey: string,
): Promise<Record<string, unknown> | undefined> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index.name,
      KeyConditionExpression: onIndex(index),
      ExpressionAttributeValues: { ':pk': partitionKey },
      Limit: 1,
    }),
  );
  return Items[0];
}

/** The stored record: the item without its table key, the keys of the shared indexes and its item type. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const { type: _t, ...record } = withoutKeys(item, [INDEX.shared1, INDEX.shared2]);
  return record as T;
}
