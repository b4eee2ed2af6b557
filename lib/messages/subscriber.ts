import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';

// The inbox endpoints answer 404 for a subscriber the environment does not have, with the
// reference's wording for them (the v2 subscriber routes say "was not found").

export async function assertSubscriberExists(scope: EnvScope, subscriberId: string): Promise<void> {
  if (!(await getSubscriber(scope, subscriberId))) throw new NotFoundError(`Subscriber ${subscriberId} not found`);
}
