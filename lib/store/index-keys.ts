import { TABLE } from './table.ts';
import type { SortKeyRange } from './cursor-page.ts';

// Index keys and Queries built from an index's definition (table.ts), so no call site spells an
// index's attribute names, and an item's reader strips the keys of exactly the indexes its kind is on.

/** One of the table's indexes (table.ts `INDEX`). */
type Named = (typeof TABLE.indexes)[number];

/** The partition of an index an item kind lists under: `{ gsiNpk }`. */
export type IndexPartition<I extends Named> = { [K in I['partitionKey']]: string };
/** An item's entry in an index: `{ gsiNpk, gsiNsk }`. */
export type IndexEntry<I extends Named> = IndexPartition<I> & { [K in I['sortKey']]: string };

export const indexPartition = <I extends Named>(index: I, partitionKey: string): IndexPartition<I> =>
  ({ [index.partitionKey]: partitionKey }) as IndexPartition<I>;

export const indexEntry = <I extends Named>(index: I, partitionKey: string, sortKey: string): IndexEntry<I> =>
  ({ [index.partitionKey]: partitionKey, [index.sortKey]: sortKey }) as IndexEntry<I>;

/** A KeyConditionExpression on `index`: its partition key is `:pk`, and its sort key `sortKey` (`BETWEEN :lo AND :hi`) if given. */
export const onIndex = (index: Named, sortKey?: string): string =>
  sortKey === undefined ? `${index.partitionKey} = :pk` : `${index.partitionKey} = :pk AND ${index.sortKey} ${sortKey}`;

/** The whole partition `partitionKey` of `index` as a list (lib/store/cursor-page.ts), in sort-key order. */
export const indexRange = (index: Named, partitionKey: string, filter?: SortKeyRange['filter']): SortKeyRange => ({
  index: index.name,
  partitionKey: { name: index.partitionKey, value: partitionKey },
  sortKeyName: index.sortKey,
  ...(filter && { filter }),
});

/** The item without its table key and the keys of `indexes` (the ones its kind is on: keys.ts `INDEXES`). */
export function withoutKeys(item: Record<string, unknown>, indexes: Record<string, Named> | readonly Named[]): Record<string, unknown> {
  const rest = { ...item };
  delete rest[TABLE.partitionKey];
  delete rest[TABLE.sortKey];
  for (const index of Object.values(indexes)) {
    delete rest[index.partitionKey];
    delete rest[index.sortKey];
  }
  return rest;
}
