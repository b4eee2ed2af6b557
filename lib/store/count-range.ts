import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import type { SortKeyRange } from './cursor-page.ts';

// A list's total without reading its items: Queries with Select COUNT over the same range (and
// filter) the list pages through, one page (up to 1 MB read) at a time, stopping as soon as the
// count passes `upTo`, so a list's total costs at most what reading `upTo` keys would.

/** How many items of `range` match, exact up to `upTo`; above it, some number greater than `upTo`. */
export async function countRange(range: SortKeyRange, upTo: number): Promise<number> {
  const prefixed = range.prefix !== undefined;
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...(range.index && { IndexName: range.index }),
        KeyConditionExpression: prefixed ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
        ...(range.filter && { FilterExpression: range.filter.expression }),
        ExpressionAttributeNames: {
          '#pk': range.partitionKey.name,
          ...(prefixed && { '#sk': range.sortKeyName }),
          ...range.filter?.names,
        },
        ExpressionAttributeValues: {
          ':pk': range.partitionKey.value,
          ...(prefixed && { ':prefix': range.prefix }),
          ...range.filter?.values,
        },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && count <= upTo);
  return count;
}
