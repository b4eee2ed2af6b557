// totalCount of the subscriptions list: counted up to 50,000, flagged beyond (the API's limit).
export const TOTAL_COUNT_CAP = 50_000;

export function capTotalCount(count: number): { totalCount: number; totalCountCapped: boolean } {
  return { totalCount: Math.min(Math.max(0, count), TOTAL_COUNT_CAP), totalCountCapped: count > TOTAL_COUNT_CAP };
}
