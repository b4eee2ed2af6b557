import type { SubscriberSession } from '../auth/session-token.ts';
import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../store/keys.ts';
import type { Subscriber } from '../subscribers/model.ts';

// What a session token opens: its environment, and there the subscriber it was made for. A
// subscriber deleted since, or deleted and made again under the same subscriberId (a new internal
// id), is not the token's: it answers as missing.

export const sessionScope = (session: SubscriberSession): EnvScope => ({
  organizationId: session.organizationId,
  environmentId: session.environmentId,
});

export function assertSessionSubscriber(session: SubscriberSession, subscriber: Pick<Subscriber, '_id'> | undefined): void {
  if (!subscriber || subscriber._id !== session.subscriberDbId) {
    throw new NotFoundError(`Subscriber with id: ${session.subscriberId} not found`);
  }
}
