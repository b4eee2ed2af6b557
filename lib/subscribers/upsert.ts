import { BadRequestError, ConflictError } from '../errors.ts';
import { newId } from '../ids.ts';
import { logger } from '../logger.ts';
import type { SubscriberDefinition } from '../pipeline/model.ts';
import type { EnvScope } from '../store/keys.ts';
import { retryOnStaleWrite, StaleWriteError } from '../store/stale-write.ts';
import { findChannelIntegration } from './channel-integration.ts';
import { applyCredentials, type CredentialsUpdate } from './channels.ts';
import type { Subscriber } from './model.ts';
import { PROFILE_FIELDS } from './profile-fields.ts';
import { getVersionedSubscriber, insertSubscriber, updateSubscriberProfile, writeChannels } from './repository.ts';
import { changeTimestamp } from './view.ts';

// A trigger names recipients by id or by definition: a missing subscriber is created, an existing
// one gets every field the definition sets (null clears it, `data` is replaced whole) and its
// channel credentials appended. A plain id changes nothing but still creates the subscriber.

export async function upsertSubscriber(scope: EnvScope, definition: SubscriberDefinition): Promise<Subscriber> {
  const profile = await retryOnStaleWrite(async () => {
    const current = await getVersionedSubscriber(scope, definition.subscriberId);
    if (!current) {
      const now = new Date().toISOString();
      const subscriber: Subscriber = {
        _id: newId(),
        _organizationId: scope.organizationId,
        _environmentId: scope.environmentId,
        subscriberId: definition.subscriberId,
        channels: [],
        deleted: false,
        createdAt: now,
        updatedAt: now,
      };
      for (const field of PROFILE_FIELDS) {
        if (definition[field] !== undefined) Object.assign(subscriber, { [field]: definition[field] });
      }
      try {
        await insertSubscriber(subscriber);
        return subscriber;
      } catch (error) {
        // Created by a concurrent trigger: update it like an existing one.
        if (error instanceof ConflictError) return retryNow();
        throw error;
      }
    }
    const changes: Record<string, unknown> = {};
    for (const field of PROFILE_FIELDS) {
      const value = definition[field];
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(current.subscriber[field])) changes[field] = value;
    }
    if (Object.keys(changes).length === 0) return current.subscriber;
    return updateSubscriberProfile(scope, current, changes, changeTimestamp(current.subscriber.updatedAt));
  });
  return definition.channels?.length ? appendChannels(scope, profile, definition.channels) : profile;
}

async function appendChannels(scope: EnvScope, subscriber: Subscriber, channels: NonNullable<SubscriberDefinition['channels']>): Promise<Subscriber> {
  const updates: CredentialsUpdate[] = [];
  for (const channel of channels) {
    try {
      const integration = await findChannelIntegration(scope, channel.providerId, channel.integrationIdentifier);
      updates.push({ providerId: channel.providerId, integrationId: integration._id, credentials: channel.credentials as CredentialsUpdate['credentials'] });
    } catch (error) {
      // No active integration for the provider: the credentials have nowhere to go.
      if (!(error instanceof BadRequestError)) throw error;
      logger.warn('Trigger recipient channel skipped', { subscriberId: subscriber.subscriberId, providerId: channel.providerId, reason: error.message });
    }
  }
  if (updates.length === 0) return subscriber;
  return retryOnStaleWrite(async () => {
    const current = await getVersionedSubscriber(scope, subscriber.subscriberId);
    if (!current) return subscriber;
    const before = current.subscriber.channels ?? [];
    const after = updates.reduce((list, update) => applyCredentials(list, update, 'append'), before);
    if (JSON.stringify(after) === JSON.stringify(before)) return current.subscriber;
    return writeChannels(scope, subscriber.subscriberId, after, current.version, changeTimestamp(current.subscriber.updatedAt));
  });
}

function retryNow(): never {
  throw new StaleWriteError('Subscriber created concurrently');
}
