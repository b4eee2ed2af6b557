import { announce } from '../live/announce.ts';
import { mapConcurrently } from '../concurrency.ts';
import type { EnvScope } from '../scope.ts';
import { getMessagesOfSubscriber, messageIdPages, type MessageFilter, type MessageRange } from './repository.ts';
import type { MarkAllInput } from './schemas.ts';
import { marked, stateBefore } from './state.ts';
import { changeMessage } from './transition.ts';
import { assertSubscriberExists } from './subscriber.ts';

const CONCURRENT_UPDATES = 10;

/**
 * Marks every in-app message of the subscriber that is not yet in the target state (optionally
 * only those of the given feeds) and returns how many changed. Messages are read and updated a
 * Query page at a time; each update is conditioned on the state it changes, so a message changed
 * meanwhile by another request is not counted twice.
 */
export async function markAllMessagesAs(scope: EnvScope, subscriberId: string, input: MarkAllInput): Promise<number> {
  await assertSubscriberExists(scope, subscriberId);
  const feedIds = input.feedIdentifier === undefined ? undefined : [input.feedIdentifier].flat();
  // No feed has none of the identifiers: nothing can match (the reference's `$in: []`).
  if (feedIds?.length === 0) return 0;

  const before = stateBefore(input.markAs);
  // Messages to mark seen are exactly the unseen in-app ones: the sparse index lists only those.
  const range: MessageRange = input.markAs === 'seen' ? { of: 'unseenInApp', subscriberId } : { of: 'subscriber', subscriberId };
  const filter: MessageFilter = {
    ...(range.of === 'subscriber' && { channel: 'in_app' as const, ...before }),
    ...(feedIds !== undefined && { feedIds }),
  };
  const now = new Date().toISOString();
  const stillBefore = (m: Parameters<typeof marked>[0]) =>
    Object.entries(before).every(([field, value]) => m[field as keyof typeof before] === value);

  let changed = 0;
  for await (const ids of messageIdPages(scope, range, filter)) {
    // A page's messages are read at once; each is marked only if it is still in the state marked from.
    const messages = await getMessagesOfSubscriber(scope, subscriberId, ids);
    const results = await mapConcurrently(messages, CONCURRENT_UPDATES, (m) =>
      changeMessage(scope, subscriberId, m, (current) => (stillBefore(current) ? marked(current, input.markAs, now) : undefined)),
    );
    changed += results.filter((r) => r?.changed).length;
  }
  // Only in-app messages are marked: an inbox open on a socket updates its counts.
  if (changed > 0) await announce(scope, subscriberId, { kind: 'counts' });
  return changed;
}
