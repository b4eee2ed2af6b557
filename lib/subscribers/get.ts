import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from './model.ts';
import { getSubscriber } from './repository.ts';
import { toSubscriberView } from './view.ts';

export async function getSubscriberOrFail(scope: EnvScope, subscriberId: string): Promise<Subscriber> {
  const subscriber = await getSubscriber(scope, subscriberId);
  if (!subscriber) throw subscriberNotFound(subscriberId);
  return toSubscriberView(subscriber);
}

export const subscriberNotFound = (subscriberId: string) => new NotFoundError(`Subscriber ${subscriberId} was not found`);
