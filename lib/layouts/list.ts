import type { EnvScope } from '../scope.ts';
import type { StoredLayout } from './model.ts';
import { listLayouts } from './repository.ts';
import type { LayoutList, ListLayoutsQuery } from './schemas.ts';
import { toLayoutListItem } from './view.ts';

// The environment's layouts (at most MAX_LAYOUTS, read whole from gsi2), filtered by `query` (a
// case-insensitive substring of the name or identifier), sorted and paged in memory.

export async function listLayoutsPage(scope: EnvScope, query: ListLayoutsQuery): Promise<LayoutList> {
  const needle = query.query?.toLowerCase();
  const matching = (await listLayouts(scope)).filter(
    (layout) => !needle || layout.name.toLowerCase().includes(needle) || layout.layoutId.toLowerCase().includes(needle),
  );
  const key = (layout: StoredLayout) => (query.orderBy === 'name' ? layout.name.toLowerCase() : layout[query.orderBy]);
  const direction = query.orderDirection === 'ASC' ? 1 : -1;
  // Ties (same name, same millisecond) keep creation order, the database id's.
  matching.sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a._id < b._id ? -1 : 1));
  return {
    layouts: matching.slice(query.offset, query.offset + query.limit).map(toLayoutListItem),
    totalCount: matching.length,
  };
}
