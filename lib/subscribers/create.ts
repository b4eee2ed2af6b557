import type { Caller } from '../auth/caller.ts';
import type { Subscriber } from './model.ts';
import { newSubscriber } from './new-subscriber.ts';
import { insertSubscriber } from './repository.ts';
import type { CreateSubscriberInput } from './schemas.ts';
import { toSubscriberView } from './view.ts';

/** Creates a subscriber in the caller's environment; 409 when its subscriberId is taken. */
export async function createSubscriber(caller: Caller, input: CreateSubscriberInput): Promise<Subscriber> {
  const subscriber = newSubscriber(caller, input.subscriberId, input);
  await insertSubscriber(subscriber);
  return toSubscriberView(subscriber);
}
