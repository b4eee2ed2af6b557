import { countRange } from '../store/count-range.ts';
import type { SortKeyRange } from '../store/cursor-page.ts';

// The `totalCount` of the v2 cursor lists: counted up to 50,000, flagged beyond (the API's limit).
export const TOTAL_COUNT_CAP = 50_000;

export interface TotalCount {
  totalCount: number;
  totalCountCapped: boolean;
}

export function capTotalCount(count: number): TotalCount {
  return { totalCount: Math.min(Math.max(0, count), TOTAL_COUNT_CAP), totalCountCapped: count > TOTAL_COUNT_CAP };
}

/** The capped total of a list read from `range`, counted without reading its items. */
export async function totalCountOf(range: SortKeyRange): Promise<TotalCount> {
  return capTotalCount(await countRange(range, TOTAL_COUNT_CAP));
}
