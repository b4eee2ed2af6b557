import type { EnvScope } from '../scope.ts';
import { countMessages } from './repository.ts';
import type { UnseenCountQuery } from './schemas.ts';
import { assertSubscriberExists } from './subscriber.ts';

/**
 * How many of the subscriber's in-app messages are unseen (or, with seen=true, seen), counted up
 * to `limit`. Unseen ones are the whole of the sparse index's partition, so that count reads no
 * more than `limit` index entries.
 */
export async function getUnseenCount(scope: EnvScope, subscriberId: string, query: UnseenCountQuery): Promise<{ count: number }> {
  await assertSubscriberExists(scope, subscriberId);
  const count = query.seen
    ? await countMessages(scope, { of: 'subscriber', subscriberId }, { channel: 'in_app', seen: true }, query.limit)
    : await countMessages(scope, { of: 'unseenInApp', subscriberId }, {}, query.limit);
  return { count };
}
