import type { Caller } from '../auth/caller.ts';
import { decodeCursor } from '../store/cursor.ts';
import { paginate, queryReader, type SortKeyRange } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { indexRange } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { cursorList, toPageRequest } from '../http/cursor-list.ts';
import { totalCountOf } from '../http/total-count.ts';
import type { Subscriber } from './model.ts';
import { getSubscriber, nameLowerOf, subscriberFromItem } from './repository.ts';
import { subscriberIdSchema, type ListSubscribersQuery } from './schemas.ts';
import { toSubscriberView } from './view.ts';

// GET /v2/subscribers with the generic cursor paging: the environment's subscribers in creation
// order (gsi1), or with `email` that email's entries (gsi2, in subscriberId order); a cursor is
// the item's sort-key value in the index read. DELETE removes the item itself, so no index lists
// a deleted subscriber and no filter on `deleted` is needed.

export interface SubscriberList {
  data: Subscriber[];
  next: string | null;
  previous: string | null;
  totalCount: number;
  totalCountCapped: boolean;
}

/**
 * A page of the caller's environment's subscribers, newest first unless `orderDirection=ASC`, and
 * how many match (the same range counted by Queries with Select COUNT, up to 50,000).
 */
export async function listSubscribers(caller: Caller, query: ListSubscribersQuery): Promise<SubscriberList> {
  if (query.subscriberId !== undefined) return subscriberById(caller, query, query.subscriberId);
  const request = toPageRequest(query, (cursor) => decodeSortKey(cursor, query.email !== undefined));
  const range = rangeOf(caller, query);
  const [page, total] = await Promise.all([
    paginate(queryReader(range), (item) => item[range.sortKeyName] as string, request),
    totalCountOf(range),
  ]);
  return { ...cursorList(page, (items) => items.map((item) => toSubscriberView(subscriberFromItem(item)))), ...total };
}

/**
 * `subscriberId` names one subscriber exactly: read by its key (a GetItem, not a page of an
 * index) and kept when the other filters match it as the index's filters would.
 */
async function subscriberById(scope: EnvScope, query: ListSubscribersQuery, subscriberId: string): Promise<SubscriberList> {
  const found = await getSubscriber(scope, subscriberId);
  const matches =
    found !== undefined &&
    (query.email === undefined || found.email === query.email) &&
    (query.phone === undefined || found.phone === query.phone) &&
    (query.name === undefined || nameLowerOf(found).includes(query.name.toLowerCase()));
  const data = matches ? [toSubscriberView(found)] : [];
  return { data, next: null, previous: null, totalCount: data.length, totalCountCapped: false };
}

/** `<createdAt>#<_id>` as subscriberListIndex builds it. */
const LIST_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[0-9a-f]{24}$/;

/** Anything but a sort key of the index read (gsi2sk is the subscriberId) is a 422, not an empty page. */
function decodeSortKey(cursor: string, byEmail: boolean): string | undefined {
  const sortKey = decodeCursor(cursor);
  if (sortKey === undefined) return undefined;
  return (byEmail ? subscriberIdSchema.safeParse(sortKey).success : LIST_KEY.test(sortKey)) ? sortKey : undefined;
}

function rangeOf(scope: EnvScope, { email, phone, name }: ListSubscribersQuery): SortKeyRange {
  const range: SortKeyRange =
    email === undefined
      ? indexRange(INDEXES.subscriber.list, keys.subscribersOfEnvironment(scope).gsi1pk)
      : indexRange(INDEXES.subscriber.byEmail, keys.subscribersByEmail(scope, email).gsi2pk);
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (phone !== undefined) {
    conditions.push('#phone = :phone');
    names['#phone'] = 'phone';
    values[':phone'] = phone;
  }
  if (name !== undefined) {
    // nameLower is "firstName lastName" in lower case, kept by every profile write (repository.ts).
    conditions.push('contains(#nameLower, :name)');
    names['#nameLower'] = 'nameLower';
    values[':name'] = name.toLowerCase();
  }
  if (conditions.length > 0) range.filter = { expression: conditions.join(' AND '), names, values };
  return range;
}
