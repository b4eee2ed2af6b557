import type { EnvScope } from '../scope.ts';
import { countMessages } from './repository.ts';

// The counts the legacy in-app clients' socket is sent (lib/live/push.ts), beside the message
// counts they are read from.

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
