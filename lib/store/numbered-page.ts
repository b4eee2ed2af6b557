import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import type { QueryInput } from './query-pages.ts';

// Numbered pages (`page`, `limit`) over one Query, as the reference's older list endpoints page.
// DynamoDB has no offset: the items before the page are walked with `Select: COUNT` (read, but
// nothing sent back), the page is read from where that walk stopped, and the items after it are
// counted the same way, at most `countAhead` of them. A page's cost grows with its depth; that is
// what numbered pages are, and why the newer endpoints use cursors.

export interface NumberedPage {
  items: Record<string, unknown>[];
  /** An item follows the page. */
  hasMore: boolean;
  /** Items of the whole Query: exact unless more than `countAhead` follow the page (then a lower bound). */
  totalCount: number;
}

/**
 * `query` has no FilterExpression (`Limit` counts items before a filter drops them) and no
 * ProjectionExpression (a COUNT takes none): it reads whole items.
 */
export async function numberedPage(
  query: Omit<QueryInput, 'Limit' | 'Select' | 'FilterExpression' | 'ProjectionExpression'>,
  page: number,
  limit: number,
  options: { countAhead?: number } = {},
): Promise<NumberedPage> {
  const send = (input: Partial<QueryInput>, startKey: Record<string, unknown> | undefined) =>
    db().send(new QueryCommand({ TableName: tableName(), ...query, ...input, ExclusiveStartKey: startKey }));

  // Before the page: counted up to the offset (a page of 1 MB may end the count short of it).
  const offset = page * limit;
  let skipped = 0;
  let startKey: Record<string, unknown> | undefined;
  while (skipped < offset) {
    const result = await send({ Select: 'COUNT', Limit: offset - skipped }, startKey);
    skipped += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
    if (!startKey) return { items: [], hasMore: false, totalCount: skipped };
  }

  // The page and one more item, which only says whether more follow.
  const items: Record<string, unknown>[] = [];
  do {
    const result = await send({ Limit: limit + 1 - items.length }, startKey);
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length <= limit);
  const hasMore = items.length > limit;
  let totalCount = skipped + items.length;

  // After the page: counted on from the extra item, up to countAhead.
  const countAhead = options.countAhead ?? 0;
  while (startKey && hasMore && totalCount - offset - limit < countAhead) {
    const result = await send({ Select: 'COUNT', Limit: countAhead - (totalCount - offset - limit) }, startKey);
    totalCount += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  }
  return { items: items.slice(0, limit), hasMore, totalCount };
}
