import type { SubscriberSession } from '../auth/session-token.ts';
import { NotFoundError } from '../errors.ts';
import type { Subscriber } from '../subscribers/model.ts';

// A session token opens the subscriber it was made for. One deleted since, or deleted and made
// again under the same subscriberId (a new internal id), is not the token's: it answers as missing.

export function assertSessionSubscriber(
  session: Pick<SubscriberSession, 'subscriberId' | 'subscriberDbId'>,
  subscriber: Pick<Subscriber, '_id'> | undefined,
): void {
  if (!subscriber || subscriber._id !== session.subscriberDbId) {
    throw new NotFoundError(`Subscriber with id: ${session.subscriberId} not found`);
  }
}
