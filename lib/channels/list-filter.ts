import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { contextKeyOf } from '../context-keys.ts';
import { db } from '../store/client.ts';
import type { SortKeyRange } from '../store/cursor-page.ts';

// The list filters of connections and endpoints, applied by DynamoDB to the environment's list
// partition (gsi1), and the list's total count under the same filter (the SDK's `totalCount`,
// capped as the reference caps it).

export const TOTAL_COUNT_CAP = 50_000;

/** Equality filters on stored attributes; `contextKeys` compares the sorted set (`contextKey`). */
export function listFilter(equal: Record<string, string | undefined>, contextKeys?: readonly string[]): SortKeyRange['filter'] {
  const fields = { ...equal, ...(contextKeys && { contextKey: contextKeyOf(contextKeys) }) };
  const set = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (set.length === 0) return undefined;
  return {
    expression: set.map((_, i) => `#f${i} = :f${i}`).join(' AND '),
    names: Object.fromEntries(set.map(([name], i) => [`#f${i}`, name])),
    values: Object.fromEntries(set.map(([, value], i) => [`:f${i}`, value])),
  };
}

/** How many items of the partition pass the filter, counting up to the cap. */
export async function countOf(gsi1pk: string, filter: SortKeyRange['filter']): Promise<{ totalCount: number; totalCountCapped: boolean }> {
  let total = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: '#pk = :pk',
        ...(filter && { FilterExpression: filter.expression }),
        ExpressionAttributeNames: { '#pk': 'gsi1pk', ...filter?.names },
        ExpressionAttributeValues: { ':pk': gsi1pk, ...filter?.values },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    total += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && total <= TOTAL_COUNT_CAP);
  return { totalCount: Math.min(total, TOTAL_COUNT_CAP), totalCountCapped: total > TOTAL_COUNT_CAP };
}
