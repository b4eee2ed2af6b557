import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import type { QueryInput } from './query-pages.ts';

// Numbered pages (`page`, `limit`) of a Query without a FilterExpression, for the legacy API's
// lists. The items before the page are only counted (Select COUNT with a Limit: DynamoDB stops
// exactly there and sends back no item), then the page is read with one item more, which only
// tells whether another page follows. Nothing past the page is read. What a page costs grows with
// its depth (every index entry before it is read); the cursor pages of cursor-page.ts do not.

export interface OffsetPage {
  items: Record<string, unknown>[];
  hasMore: boolean;
}

export async function offsetPage(input: QueryInput, offset: number, limit: number): Promise<OffsetPage> {
  const send = (extra: Partial<QueryInput>, startKey: Record<string, unknown> | undefined) =>
    db().send(new QueryCommand({ TableName: tableName(), ...input, ...extra, ExclusiveStartKey: startKey }));

  let startKey: Record<string, unknown> | undefined;
  let skipped = 0;
  while (skipped < offset) {
    const counted = await send({ Select: 'COUNT', Limit: offset - skipped }, startKey);
    skipped += counted.Count ?? 0;
    startKey = counted.LastEvaluatedKey;
    // The range ended before the page starts (or exactly where it starts): nothing to show.
    if (!startKey) return { items: [], hasMore: false };
  }

  const items: Record<string, unknown>[] = [];
  do {
    const read = await send({ Limit: limit + 1 - items.length }, startKey);
    items.push(...(read.Items ?? []));
    startKey = read.LastEvaluatedKey;
  } while (startKey && items.length <= limit);
  return { items: items.slice(0, limit), hasMore: items.length > limit };
}
