import { NotFoundError } from '../errors.ts';
import type { Subscriber } from '../subscribers/model.ts';

// A session token opens the subscriber it was made for. One deleted since, or deleted and made
// again under the same subscriberId (a new internal id), is not the token's: it answers as missing.
// An API key names a subscriber by its subscriberId alone (no internal id): only a missing one is.

export function assertSessionSubscriber(
  opener: { subscriberId: string; subscriberDbId?: string },
  subscriber: Pick<Subscriber, '_id'> | undefined,
): asserts subscriber is Pick<Subscriber, '_id'> {
  if (!subscriber || (opener.subscriberDbId !== undefined && subscriber._id !== opener.subscriberDbId)) {
    throw new NotFoundError(`Subscriber with id: ${opener.subscriberId} not found`);
  }
}
