import { decodeCursor } from '../store/cursor.ts';
import type { EnvScope } from '../scope.ts';
import { cursorList, toPageRequest } from '../http/cursor-list.ts';
import { capTotalCount, TOTAL_COUNT_CAP } from '../http/total-count.ts';
import { countTopics, topicsPage } from './repository.ts';
import type { ListTopicsQuery, TopicList } from './schemas.ts';

/**
 * The environment's topics in creation order, filtered by exact `key` and by `name` (contains, any
 * case), with how many match (counted up to 50,000 by Queries with Select COUNT, never a Scan).
 */
export async function listTopics(scope: EnvScope, query: ListTopicsQuery): Promise<TopicList> {
  const request = toPageRequest(query, decodeCursor);
  const filter = { key: query.key, nameContains: query.name };
  const [page, count] = await Promise.all([topicsPage(scope, request, filter), countTopics(scope, filter, TOTAL_COUNT_CAP)]);
  return { ...cursorList(page, (items) => items.map(({ listKey: _k, ...topic }) => topic)), ...capTotalCount(count) };
}
