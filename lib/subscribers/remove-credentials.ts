import type { Caller } from '../auth/caller.ts';
import { subscriberNotFound } from './get.ts';
import { getVersionedSubscriber, writeChannels } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { changeTimestamp } from './view.ts';

/** Removes every channel setting of one provider from a subscriber. */
export async function removeSubscriberCredentials(caller: Caller, subscriberId: string, providerId: string): Promise<void> {
  await retryOnStaleWrite(async () => {
    const current = await getVersionedSubscriber(caller, subscriberId);
    if (!current) throw subscriberNotFound(subscriberId);
    const before = current.subscriber.channels ?? [];
    const channels = before.filter((c) => c.providerId !== providerId);
    if (channels.length === before.length) return;
    await writeChannels(caller, subscriberId, channels, current.version, changeTimestamp(current.subscriber.updatedAt));
  });
}
