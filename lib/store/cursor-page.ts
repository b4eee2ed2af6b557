import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import type { IndexName } from './table.ts';

// Cursor pagination in both directions with the reference's semantics:
// a cursor is the sort-key value of an item of the list; `after` reads on in the list's order,
// `before` reads back against it; `next`/`previous` are set only when something lies beyond.
// Every read starts at the cursor through the key condition, so a page costs the same at any depth.

export type Direction = 'ASC' | 'DESC';

export interface PageRequest {
  limit: number;
  orderDirection: Direction;
  after?: string | undefined;
  before?: string | undefined;
  includeCursor?: boolean | undefined;
}

export interface Page<T> {
  items: T[];
  /** Sort-key values of the boundary items, or null. */
  next: string | null;
  previous: string | null;
  /** False when the cursor names no item of the list (the page is then empty). */
  cursorFound: boolean;
}

/**
 * Reads up to `count` items in ascending (`ascending`) or descending sort-key order, starting at
 * `start` inclusive when given, else at the list's end on that side.
 */
export type ListReader<T> = (ascending: boolean, start: string | undefined, count: number) => Promise<T[]>;

export async function paginate<T>(read: ListReader<T>, sortKeyOf: (item: T) => string, request: PageRequest): Promise<Page<T>> {
  const { limit } = request;
  const ascending = request.orderDirection === 'ASC';
  const cursor = request.before ?? request.after;
  if (cursor === undefined) {
    const rows = await read(ascending, undefined, limit + 1);
    const items = rows.slice(0, limit);
    return { items, next: rows.length > limit ? sortKeyOf(items[items.length - 1]!) : null, previous: null, cursorFound: true };
  }

  const forward = request.before === undefined;
  const readAscending = forward ? ascending : !ascending;
  const rows = await read(readAscending, cursor, limit + 2);
  if (rows.length === 0 || sortKeyOf(rows[0]!) !== cursor) return { items: [], next: null, previous: null, cursorFound: false };

  const candidates = request.includeCursor ? rows : rows.slice(1);
  const more = candidates.length > limit;
  const taken = candidates.slice(0, limit);
  if (taken.length === 0) return { items: [], next: null, previous: null, cursorFound: true };
  // Without includeCursor the cursor item itself lies beyond the page's near edge.
  const beyondCursor = request.includeCursor ? (await read(!readAscending, cursor, 2)).length > 1 : true;

  if (forward) {
    return {
      items: taken,
      next: more ? sortKeyOf(taken[taken.length - 1]!) : null,
      previous: beyondCursor ? sortKeyOf(taken[0]!) : null,
      cursorFound: true,
    };
  }
  const items = taken.reverse();
  return {
    items,
    previous: more ? sortKeyOf(items[0]!) : null,
    next: beyondCursor ? sortKeyOf(items[items.length - 1]!) : null,
    cursorFound: true,
  };
}

/** A list stored as the items of one partition (of the table or an index), optionally under a sort-key prefix. */
export interface SortKeyRange {
  index?: IndexName;
  partitionKey: { name: string; value: string };
  sortKeyName: string;
  prefix?: string;
  /** Applied by DynamoDB after the key condition; reads continue until enough items match. */
  filter?: { expression: string; names?: Record<string, string>; values: Record<string, unknown> };
}

/** Reads a SortKeyRange: one Query per call (more only when a filter or the 1 MB cap cuts it short). */
export function queryReader(range: SortKeyRange): ListReader<Record<string, unknown>> {
  return async (ascending, start, count) => {
    // The inclusive bounds of the list: the prefix up to its successor (the last character + 1).
    const low = range.prefix;
    const high = range.prefix === undefined ? undefined : successor(range.prefix);
    const from = start ?? (ascending ? low : high);
    const to = ascending ? high : low;
    const values: Record<string, unknown> = { ':pk': range.partitionKey.value, ...range.filter?.values };
    let condition = '#pk = :pk';
    if (from !== undefined && to !== undefined) {
      condition += ' AND #sk BETWEEN :lo AND :hi';
      values[':lo'] = ascending ? from : to;
      values[':hi'] = ascending ? to : from;
    } else if (from !== undefined) {
      condition += ascending ? ' AND #sk >= :from' : ' AND #sk <= :from';
      values[':from'] = from;
    }
    const out: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          ...(range.index && { IndexName: range.index }),
          KeyConditionExpression: condition,
          ...(range.filter && { FilterExpression: range.filter.expression }),
          ExpressionAttributeNames: {
            '#pk': range.partitionKey.name,
            ...(condition.includes('#sk') && { '#sk': range.sortKeyName }),
            ...range.filter?.names,
          },
          ExpressionAttributeValues: values,
          ScanIndexForward: ascending,
          // A filter drops items after Limit counts them: read a fuller page rather than many small ones.
          Limit: range.filter ? Math.max(count, 100) : count - out.length,
          ExclusiveStartKey,
        }),
      );
      out.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && out.length < count);
    return out.slice(0, count);
  };
}

/** Reads an in-memory list (already filtered) with the same semantics as queryReader. */
export function arrayReader<T>(items: readonly T[], sortKeyOf: (item: T) => string): ListReader<T> {
  return async (ascending, start, count) => {
    const sorted = [...items].sort((a, b) => compare(sortKeyOf(a), sortKeyOf(b)) * (ascending ? 1 : -1));
    const from = start === undefined ? sorted : sorted.filter((i) => compare(sortKeyOf(i), start) * (ascending ? 1 : -1) >= 0);
    return from.slice(0, count);
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function successor(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
