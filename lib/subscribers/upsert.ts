import { BadRequestError, ConflictError } from '../errors.ts';
import { newSubscriber } from './new-subscriber.ts';
import { logger } from '../logger.ts';
import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite, StaleWriteError } from '../store/stale-write.ts';
import { findChannelIntegration } from './channel-integration.ts';
import { applyCredentials, type CredentialsUpdate } from './channels.ts';
import type { Subscriber, SubscriberDefinition } from './model.ts';
import { PROFILE_FIELDS } from './profile-fields.ts';
import { getVersionedSubscriber, insertSubscriber, updateSubscriberProfile, writeChannels } from './repository.ts';
import { changeTimestamp } from './view.ts';

// A subscriber named by a definition (a trigger's recipient, an inbox session, the legacy API's
// identify and bulk create): a missing subscriber is created, an existing one gets every field the
// definition sets (null clears it, `data` is replaced whole) and its channel credentials appended.
// A plain id changes nothing but still creates the subscriber.

export type DefinedChannel = NonNullable<SubscriberDefinition['channels']>[number];

/** Finds the integration of a channel entry; 400 (BadRequestError) when the environment has none active. */
export type IntegrationFinder = (providerId: string, integrationIdentifier?: string) => ReturnType<typeof findChannelIntegration>;

/** A trigger's recipient: channels without an active integration are skipped (a trigger cannot fail for them). */
export async function upsertSubscriber(scope: EnvScope, definition: SubscriberDefinition): Promise<Subscriber> {
  const find: IntegrationFinder = (providerId, identifier) => findChannelIntegration(scope, providerId, identifier);
  const updates = await channelUpdates(definition.subscriberId, definition.channels ?? [], find, 'skip');
  const { subscriber } = await upsertProfile(scope, definition);
  return appendChannels(scope, subscriber, updates);
}

/**
 * The credentials updates of channel entries. A provider without an active integration is
 * skipped (`skip`, logged) or refused (`refuse`: the BadRequestError propagates, before anything
 * is written).
 */
export async function channelUpdates(
  subscriberId: string,
  channels: readonly DefinedChannel[],
  find: IntegrationFinder,
  onMissing: 'skip' | 'refuse',
): Promise<CredentialsUpdate[]> {
  const updates: CredentialsUpdate[] = [];
  for (const channel of channels) {
    try {
      const integration = await find(channel.providerId, channel.integrationIdentifier);
      updates.push({
        providerId: channel.providerId,
        integrationId: integration._id,
        credentials: channel.credentials as CredentialsUpdate['credentials'],
      });
    } catch (error) {
      // No active integration for the provider: the credentials have nowhere to go.
      if (!(error instanceof BadRequestError) || onMissing === 'refuse') throw error;
      logger.warn('Subscriber channel skipped', { subscriberId, providerId: channel.providerId, reason: error.message });
    }
  }
  return updates;
}

/** Creates the subscriber or updates its profile fields; `created` tells which. */
export async function upsertProfile(
  scope: EnvScope,
  definition: Omit<SubscriberDefinition, 'channels'>,
): Promise<{ subscriber: Subscriber; created: boolean }> {
  return retryOnStaleWrite(async () => {
    const current = await getVersionedSubscriber(scope, definition.subscriberId);
    if (!current) {
      const subscriber = newSubscriber(scope, definition.subscriberId, definition);
      try {
        await insertSubscriber(subscriber);
        return { subscriber, created: true };
      } catch (error) {
        // Created by a concurrent request: update it like an existing one.
        if (error instanceof ConflictError) return retryNow();
        throw error;
      }
    }
    const changes: Record<string, unknown> = {};
    for (const field of PROFILE_FIELDS) {
      const value = definition[field];
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(current.subscriber[field])) changes[field] = value;
    }
    if (Object.keys(changes).length === 0) return { subscriber: current.subscriber, created: false };
    return {
      subscriber: await updateSubscriberProfile(scope, current, changes, changeTimestamp(current.subscriber.updatedAt)),
      created: false,
    };
  });
}

/** Appends the credentials updates to the subscriber's channels (device tokens de-duplicated). */
export async function appendChannels(scope: EnvScope, subscriber: Subscriber, updates: readonly CredentialsUpdate[]): Promise<Subscriber> {
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
