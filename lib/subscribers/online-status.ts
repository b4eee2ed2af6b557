import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { subscriberNotFound } from './get.ts';
import type { Subscriber } from './model.ts';
import { getVersionedSubscriber, updateSubscriberProfile } from './repository.ts';
import type { OnlineStatusInput } from './schemas.ts';
import { changeTimestamp, toSubscriberView } from './view.ts';

/**
 * Sets whether the subscriber is online (`PATCH /v1/subscribers/{id}/online-status`); going
 * offline stamps `lastOnlineAt`, as the reference does.
 */
export function updateOnlineStatus(scope: EnvScope, subscriberId: string, input: OnlineStatusInput): Promise<Subscriber> {
  const isOnline = (input.isOnline ?? input.online)!;
  return retryOnStaleWrite(async () => {
    const read = await getVersionedSubscriber(scope, subscriberId);
    if (!read) throw subscriberNotFound(subscriberId);
    const now = changeTimestamp(read.subscriber.updatedAt);
    return toSubscriberView(await updateSubscriberProfile(scope, read, { isOnline, ...(!isOnline && { lastOnlineAt: now }) }, now));
  });
}
