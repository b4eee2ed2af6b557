import * as z from '../zod.ts';
import { BadRequestError, ValidationError } from '../errors.ts';
import type { Page, PageRequest } from '../store/cursor-page.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';

// The API side of every cursor list: the query parameters it takes (bad ones are 400/422s before
// any read), turned into the store's page request, and the page turned into the body clients read
// (`data`, `next`, `previous`, cursors opaque). Paging itself is lib/store/cursor-page.ts.

/** The query parameters of every cursor list, for its zod schema. */
export const cursorQueryFields = {
  after: z.optional(z.string().check(z.maxLength(2048))),
  before: z.optional(z.string().check(z.maxLength(2048))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
  orderDirection: z._default(z.enum(['ASC', 'DESC']), 'DESC'),
  includeCursor: z._default(z.stringbool(), false),
};

export interface CursorQuery {
  after?: string | undefined;
  before?: string | undefined;
  limit: number;
  orderDirection: 'ASC' | 'DESC';
  includeCursor: boolean;
}

/**
 * The page request of a query, each cursor turned into a sort-key value by `decode`. A cursor
 * that cannot be one of ours is a 422 on its parameter; one that names no item (any more) gives
 * an empty page later.
 */
export function toPageRequest(query: CursorQuery, decode: (cursor: string) => string | undefined): PageRequest {
  if (query.after !== undefined && query.before !== undefined) {
    throw new BadRequestError('Cannot specify both "before" and "after" cursors at the same time.');
  }
  const request: PageRequest = { limit: query.limit, orderDirection: query.orderDirection, includeCursor: query.includeCursor };
  for (const side of ['after', 'before'] as const) {
    const cursor = query[side];
    if (cursor === undefined) continue;
    const decoded = decode(cursor);
    if (decoded === undefined) throw ValidationError.forField(side, `${side} is not a valid cursor`, cursor);
    request[side] = decoded;
  }
  return request;
}

/** A cursor decoder that takes only sort keys of this shape: any other cursor is a 422, not an empty page. */
export const cursorOfShape =
  (shape: RegExp) =>
  (cursor: string): string | undefined => {
    const sortKey = decodeCursor(cursor);
    return sortKey !== undefined && shape.test(sortKey) ? sortKey : undefined;
  };

/** A page as every cursor list answers it: its items (as `view` shows them) and the cursors either side. */
export function cursorList<T, V = T>(page: Page<T>, view: (items: T[]) => V[] = (items) => items as unknown as V[]) {
  return {
    data: view(page.items),
    next: page.next === null ? null : encodeCursor(page.next),
    previous: page.previous === null ? null : encodeCursor(page.previous),
  };
}
