import { cursorList, cursorOfShape, toPageRequest } from '../http/cursor-list.ts';
import type { EnvScope } from '../scope.ts';
import { totalCountOf } from '../http/total-count.ts';
import { contextsPage, contextsRange } from './repository.ts';
import type { ContextList, ListContextsQuery } from './schemas.ts';

/** `<createdAt>#<type>:<id>` as contextListIndex builds it; anything else is a 422, not an empty page. */
const LIST_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[a-zA-Z0-9_-]+:[a-zA-Z0-9_-]+$/;

/**
 * The environment's contexts in creation order, newest first unless `orderDirection=ASC`,
 * filtered by exact type and id and by `search` (part of `type:id`, any case); totalCount counts
 * the matching ones (capped).
 */
export async function listContexts(scope: EnvScope, query: ListContextsQuery): Promise<ContextList> {
  const filter = { type: query.type, id: query.id, search: query.search };
  const [page, count] = await Promise.all([
    contextsPage(scope, toPageRequest(query, cursorOfShape(LIST_KEY)), filter),
    totalCountOf(contextsRange(scope, filter)),
  ]);
  return { ...cursorList(page), ...count };
}
