import { isDeepStrictEqual } from 'node:util';
import type { Caller } from '../auth/caller.ts';
import { subscriberNotFound } from './get.ts';
import type { Subscriber } from './model.ts';
import { getSubscriber, updateSubscriberProfile } from './repository.ts';
import { PROFILE_FIELDS, type SubscriberPatch } from './schemas.ts';
import { changeTimestamp, toSubscriberView } from './view.ts';

/**
 * PATCH: only the sent fields change, null clears one, `data` is replaced whole. A patch that
 * changes nothing writes nothing and returns the subscriber as it is.
 */
export async function patchSubscriber(caller: Caller, subscriberId: string, patch: SubscriberPatch): Promise<Subscriber> {
  const current = await getSubscriber(caller, subscriberId);
  if (!current) throw subscriberNotFound(subscriberId);

  const changes: SubscriberPatch = {};
  for (const field of PROFILE_FIELDS) {
    const value = patch[field];
    if (value !== undefined && !isDeepStrictEqual(value, current[field] ?? null)) Object.assign(changes, { [field]: value });
  }
  if (Object.keys(changes).length === 0) return toSubscriberView(current);

  const updated = await updateSubscriberProfile(caller, subscriberId, changes, changeTimestamp(current.updatedAt));
  if (!updated) throw subscriberNotFound(subscriberId);
  return toSubscriberView(updated);
}
