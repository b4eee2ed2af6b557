import type { SubscriberSession } from '../auth/session-token.ts';
import { countMessages } from '../messages/repository.ts';
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
