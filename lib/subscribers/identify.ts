import type { EnvScope } from '../scope.ts';
import { findChannelIntegration } from './channel-integration.ts';
import { applyCredentials } from './channels.ts';
import type { ChannelSettings, Subscriber } from './model.ts';
import type { SubscriberDefinitionInput } from './schemas.ts';
import { appendChannels, channelUpdates, upsertProfile, type IntegrationFinder } from './upsert.ts';
import { toSubscriberView } from './view.ts';

/**
 * The legacy API's identify (`POST /v1/subscribers`): creates the subscriber, or updates the
 * profile of the existing one, and appends the credentials of its channels. A channel whose
 * provider has no active integration, or more device tokens than a channel holds, is a 400
 * before anything is written.
 */
export async function identifySubscriber(scope: EnvScope, input: SubscriberDefinitionInput): Promise<Subscriber> {
  const find: IntegrationFinder = (providerId, identifier) => findChannelIntegration(scope, providerId, identifier);
  const { subscriber } = await identify(scope, input, find);
  return toSubscriberView(subscriber);
}

/** Identify with a given integration lookup (bulk create shares one per request); `created` tells which it did. */
export async function identify(
  scope: EnvScope,
  input: SubscriberDefinitionInput,
  find: IntegrationFinder,
): Promise<{ subscriber: Subscriber; created: boolean }> {
  const { channels, ...profile } = input;
  const updates = await channelUpdates(input.subscriberId, channels ?? [], find, 'refuse');
  // The tokens sent alone must fit a channel (pure: throws the 400 without writing).
  updates.reduce((list, update) => applyCredentials(list, update, 'append'), [] as ChannelSettings[]);
  const { subscriber, created } = await upsertProfile(scope, profile);
  return { subscriber: await appendChannels(scope, subscriber, updates), created };
}
