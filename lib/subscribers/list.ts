import type { Caller } from '../auth/caller.ts';
import { BadRequestError } from '../errors.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { querySubscriberPage } from './list-query.ts';
import type { Subscriber } from './model.ts';
import type { ListSubscribersQuery } from './schemas.ts';
import { toSubscriberView } from './view.ts';

export interface SubscriberList {
  data: Subscriber[];
  next: string | null;
  previous: string | null;
}

/** A page of the caller's environment's subscribers, newest first unless `orderDirection=ASC`. */
export async function listSubscribers(caller: Caller, query: ListSubscribersQuery): Promise<SubscriberList> {
  if (query.after !== undefined && query.before !== undefined) {
    throw new BadRequestError('Cannot specify both "before" and "after" cursors at the same time.');
  }
  const page = await querySubscriberPage(
    caller,
    { email: query.email, name: query.name, phone: query.phone },
    {
      after: query.after === undefined ? undefined : decodeCursor(query.after, 'after'),
      before: query.before === undefined ? undefined : decodeCursor(query.before, 'before'),
      limit: query.limit,
      direction: query.orderDirection,
    },
  );
  return {
    data: page.items.map(toSubscriberView),
    next: page.next && encodeCursor(page.next),
    previous: page.previous && encodeCursor(page.previous),
  };
}
