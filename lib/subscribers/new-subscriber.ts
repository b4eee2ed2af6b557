import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from './model.ts';
import { PROFILE_FIELDS, type ProfileField } from './profile-fields.ts';

/** A subscriber as first stored: no channels, the profile fields `profile` sets, created now. */
export function newSubscriber(scope: EnvScope, subscriberId: string, profile: Partial<Record<ProfileField, unknown>>): Subscriber {
  const now = new Date().toISOString();
  const subscriber: Subscriber = {
    _id: newId(Date.parse(now)),
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    subscriberId,
    channels: [],
    deleted: false,
    createdAt: now,
    updatedAt: now,
  };
  for (const field of PROFILE_FIELDS) {
    if (profile[field] !== undefined) Object.assign(subscriber, { [field]: profile[field] });
  }
  return subscriber;
}
