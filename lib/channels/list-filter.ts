import { contextKeyOf } from '../context-keys.ts';
import type { SortKeyRange } from '../store/cursor-page.ts';

// The list filters of connections and endpoints, applied by DynamoDB to the environment's list
// partition (`indexRange` of its list index); the list's total is counted over the same range
// (lib/http/total-count.ts).

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
