import type { SubscriberSession } from '../auth/session-token.ts';
import { countMessages } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
import { widgetCaller } from './subscriber.ts';

// GET /v1/widgets/notifications/unseen | unread | count: how many of the subscriber's in-app
// messages are in a state, counted no further than `limit` (at most 100; the widget shows "99+").

export interface WidgetCountRequest {
  seen?: boolean | undefined;
  read?: boolean | undefined;
  feedIdentifier?: string[] | undefined;
  limit: number;
}

export async function widgetCount(session: SubscriberSession, request: WidgetCountRequest): Promise<{ count: number }> {
  const { scope, subscriberId } = await widgetCaller(session);
  const { seen, read, feedIdentifier: feedIds, limit } = request;
  if (feedIds?.length === 0) return { count: 0 };
  // Exactly the unseen ones are the whole of the sparse unseen index: no more than `limit` entries read.
  if (seen === false && read === undefined && feedIds === undefined)
    return { count: await countMessages(scope, { of: 'unseenInApp', subscriberId }, {}, limit) };
  const filter = {
    channel: 'in_app' as const,
    ...(seen !== undefined && { seen }),
    ...(read !== undefined && { read }),
    ...(feedIds !== undefined && { feedIds }),
  };
  return { count: await countMessages(scope, { of: 'subscriber', subscriberId }, filter, limit) };
}

/** `/count` without a state counts the unseen, as the reference does. */
export const countRequest = (q: WidgetCountRequest): WidgetCountRequest =>
  q.seen === undefined && q.read === undefined ? { ...q, seen: false } : q;

/** The counts a legacy client's socket is sent: up to 100 each, and whether there are more. */
export async function widgetCounts(scope: EnvScope, subscriberId: string) {
  const capped = (n: number) => ({ count: Math.min(n, MAX_COUNT), hasMore: n > MAX_COUNT });
  const [unseen, unread] = await Promise.all([
    countMessages(scope, { of: 'unseenInApp', subscriberId }, {}, MAX_COUNT + 1),
    countMessages(scope, { of: 'subscriber', subscriberId }, { channel: 'in_app', read: false }, MAX_COUNT + 1),
  ]);
  return { unseen: capped(unseen), unread: capped(unread) };
}

const MAX_COUNT = 100;
