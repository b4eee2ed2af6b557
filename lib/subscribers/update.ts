import { isDeepStrictEqual } from 'node:util';
import type { Caller } from '../auth/caller.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { subscriberNotFound } from './get.ts';
import type { Subscriber } from './model.ts';
import { PROFILE_FIELDS } from './profile-fields.ts';
import { getVersionedSubscriber, updateSubscriberProfile } from './repository.ts';
import type { SubscriberPatch } from './schemas.ts';
import { changeTimestamp, toSubscriberView } from './view.ts';

/**
 * PATCH: only the sent fields change, null clears one, `data` is replaced whole. A patch that
 * changes nothing writes nothing and returns the subscriber as it is. The write is conditioned on
 * the read (the stored search name derives from both names), so a concurrent change redoes it.
 */
export async function patchSubscriber(caller: Caller, subscriberId: string, patch: SubscriberPatch): Promise<Subscriber> {
  return retryOnStaleWrite(async () => {
    const read = await getVersionedSubscriber(caller, subscriberId);
    if (!read) throw subscriberNotFound(subscriberId);
    const current = read.subscriber;

    const changes: SubscriberPatch = {};
    for (const field of PROFILE_FIELDS) {
      const value = patch[field];
      if (value !== undefined && !isDeepStrictEqual(value, current[field] ?? null)) Object.assign(changes, { [field]: value });
    }
    if (Object.keys(changes).length === 0) return toSubscriberView(current);
    return toSubscriberView(await updateSubscriberProfile(caller, read, changes, changeTimestamp(current.updatedAt)));
  });
}
