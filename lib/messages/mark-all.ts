import { mapConcurrently } from '../store/concurrency.ts';
import type { EnvScope } from '../store/keys.ts';
import { changeMessageState, messageIdPages, type MessageFilter, type MessageRange } from './repository.ts';
import type { MarkAllInput } from './schemas.ts';
import { stateBefore, stateChange } from './state.ts';
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
  const change = stateChange(input.markAs, new Date().toISOString());

  let changed = 0;
  for await (const ids of messageIdPages(scope, range, filter)) {
    const results = await mapConcurrently(ids, CONCURRENT_UPDATES, (_id) =>
      changeMessageState(scope, { subscriberId, _id, channel: 'in_app' }, change, before),
    );
    changed += results.filter((m) => m !== undefined).length;
  }
  return changed;
}
