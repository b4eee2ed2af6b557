import type { Caller } from '../auth/caller.ts';
import { newId } from '../ids.ts';
import type { Subscriber } from './model.ts';
import { PROFILE_FIELDS } from './profile-fields.ts';
import { insertSubscriber } from './repository.ts';
import type { CreateSubscriberInput } from './schemas.ts';
import { toSubscriberView } from './view.ts';

/** Creates a subscriber in the caller's environment; 409 when its subscriberId is taken. */
export async function createSubscriber(caller: Caller, input: CreateSubscriberInput): Promise<Subscriber> {
  const now = new Date().toISOString();
  const subscriber: Subscriber = {
    _id: newId(),
    _organizationId: caller.organizationId,
    _environmentId: caller.environmentId,
    subscriberId: input.subscriberId,
    channels: [],
    deleted: false,
    createdAt: now,
    updatedAt: now,
  };
  for (const field of PROFILE_FIELDS) {
    if (input[field] !== undefined) Object.assign(subscriber, { [field]: input[field] });
  }
  await insertSubscriber(subscriber);
  return toSubscriberView(subscriber);
}
