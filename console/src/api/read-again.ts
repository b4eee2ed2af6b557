import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * After a change: the queries under `queryKey` read again, from now on. Invalidating alone is not
 * enough. A query still on its first load keeps that load (React Query reuses an in-flight fetch
 * of a query that has no data yet), and its answer may have been read before the change: a list
 * opened just before a create would never show what was created. So those loads are dropped first.
 * A query that has data is already fetched afresh by the invalidation.
 */
export async function readAgain(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey, predicate: (query) => query.state.data === undefined });
  await queryClient.invalidateQueries({ queryKey });
}
