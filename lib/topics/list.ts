import { decodeCursor } from '../store/cursor.ts';
import type { EnvScope } from '../scope.ts';
import { cursorList, toPageRequest } from '../http/cursor-list.ts';
import { topicsPage } from './repository.ts';
import type { ListTopicsQuery, TopicList } from './schemas.ts';

/** The environment's topics in creation order, filtered by exact `key` and by `name` (contains, any case). */
export async function listTopics(scope: EnvScope, query: ListTopicsQuery): Promise<TopicList> {
  const request = toPageRequest(query, decodeCursor);
  const page = await topicsPage(scope, request, { key: query.key, nameContains: query.name });
  return cursorList(page, (items) => items.map(({ listKey: _k, ...topic }) => topic));
}
