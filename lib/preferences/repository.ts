import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHANNELS } from '../integrations/catalogue.ts';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { atVersion, writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { liveUntilOf } from '../live/presence.ts';
import { subscriberFromItem } from '../subscribers/repository.ts';
import type { PreferenceChannels, Schedule } from './schemas.ts';

// A subscriber's own preference choices: one global item and one item per workflow, all in the
// subscriber's partition next to its profile, so they are read with it: all of them in one Query
// (the preferences endpoint), or the two that decide a job by key (delivery). Each channel is its
// own attribute, so a change of one channel is a single atomic update that never overwrites a
// concurrent change of another. Every write counts the item's `version` up, so a change that
// merges with what it read (a partial schedule) can be conditioned on nothing having changed since.

export interface GlobalChoice {
  channels: PreferenceChannels;
  schedule?: Schedule;
  /** False: the subscriber switched every workflow off (the legacy API's global `enabled`). */
  enabled?: boolean;
  updatedAt: string;
  /** Absent on items written before versions were kept. */
  version?: number;
}

export interface WorkflowChoice {
  workflowDbId: string;
  channels: PreferenceChannels;
  /** False: the subscriber switched the whole workflow off (every channel). */
  enabled?: boolean;
  updatedAt: string;
}

export interface SubscriberChoices {
  global?: GlobalChoice;
  /** By workflow database id. */
  workflows: Map<string, WorkflowChoice>;
}

/** The subscriber (undefined when there is none, or deleted) and its choices. */
export interface SubscriberWithChoices {
  subscriber: Subscriber | undefined;
  choices: SubscriberChoices;
  /** Until when the subscriber may have an inbox socket open (lib/live/presence.ts), read with the profile. */
  liveUntil?: number;
}

/**
 * The subscriber and all its choices, with one Query of its partition: the profile's sort key
 * follows the preferences' (keys.ts). Read consistently, as the profile alone is.
 */
export async function getSubscriberWithChoices(scope: EnvScope, subscriberId: string): Promise<SubscriberWithChoices> {
  const { pk, skFrom, skTo } = keys.subscriberProfileAndPreferences(scope, subscriberId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': skFrom, ':to': skTo },
    ConsistentRead: true,
  });
  const profile = items.find((item) => item.sk === skTo);
  return withChoices(
    profile,
    items.filter((item) => item !== profile),
  );
}

/**
 * What a job needs of its subscriber: the profile, the global choice and the choice for its
 * workflow. Three reads, sent with those of the other jobs
 * of the batch (get-item.ts), consistent as the profile alone is.
 */
export async function getSubscriberForWorkflow(
  scope: EnvScope,
  subscriberId: string,
  workflowDbId: string,
): Promise<SubscriberWithChoices> {
  const [profile, ...preferences] = await Promise.all(
    [
      keys.subscriber(scope, subscriberId),
      keys.subscriberGlobalPreference(scope, subscriberId),
      keys.subscriberWorkflowPreference(scope, subscriberId, workflowDbId),
    ].map((key) => getItem(key, { consistent: true })),
  );
  return withChoices(
    profile,
    preferences.filter((item) => item !== undefined),
  );
}

/** The subscriber's global choice alone (undefined when it has none), read consistently. */
export async function getGlobalChoice(scope: EnvScope, subscriberId: string): Promise<GlobalChoice | undefined> {
  const item = await getItem(keys.subscriberGlobalPreference(scope, subscriberId), { consistent: true });
  return item ? choicesOf([item]).global : undefined;
}

function withChoices(profile: Record<string, unknown> | undefined, preferences: readonly Record<string, unknown>[]): SubscriberWithChoices {
  const subscriber = profile && !profile.deleted ? subscriberFromItem(profile) : undefined;
  return { subscriber, choices: choicesOf(preferences), ...(subscriber && { liveUntil: liveUntilOf(profile) }) };
}

function choicesOf(items: readonly Record<string, unknown>[]): SubscriberChoices {
  const choices: SubscriberChoices = { workflows: new Map() };
  for (const item of items) {
    const channels = channelsOf(item);
    const updatedAt = item.updatedAt as string;
    const enabled = typeof item.enabled === 'boolean' ? { enabled: item.enabled } : {};
    if (item.kind === 'global') {
      choices.global = {
        channels,
        updatedAt,
        ...enabled,
        ...(item.schedule ? { schedule: item.schedule as Schedule } : {}),
        ...(typeof item.version === 'number' && { version: item.version }),
      };
    } else {
      const workflowDbId = item.workflowDbId as string;
      choices.workflows.set(workflowDbId, { workflowDbId, channels, ...enabled, updatedAt });
    }
  }
  return choices;
}

function channelsOf(item: Record<string, unknown>): PreferenceChannels {
  const channels: PreferenceChannels = {};
  for (const channel of CHANNELS) {
    const value = item[`channel_${channel}`];
    if (typeof value === 'boolean') channels[channel] = value;
  }
  return channels;
}

export type ChoiceTarget = { kind: 'global' } | { kind: 'workflow'; workflowDbId: string };

export interface ChoiceChange {
  channels?: PreferenceChannels;
  /** Global only. */
  schedule?: Schedule;
  /** A workflow's switch, or the global one (every workflow): on or off. */
  enabled?: boolean;
}

/**
 * Sets the given channels (and, globally, the schedule) and the item's switch; what is not
 * given keeps its value. With `ifVersion`, only if the item is still at the version read
 * (undefined: none was read), else StaleWriteError.
 */
export async function updateChoice(
  scope: EnvScope,
  subscriberId: string,
  target: ChoiceTarget,
  change: ChoiceChange,
  condition?: { ifVersion: number | undefined },
): Promise<void> {
  const names: Record<string, string> = { '#kind': 'kind', '#type': 'type', '#updatedAt': 'updatedAt', '#version': 'version' };
  const values: Record<string, unknown> = { ':kind': target.kind, ':type': 'Preference', ':now': new Date().toISOString(), ':one': 1 };
  const sets = ['#kind = :kind', '#type = :type', '#updatedAt = :now'];
  for (const [channel, enabled] of Object.entries(change.channels ?? {})) {
    if (enabled === undefined) continue;
    names[`#${channel}`] = `channel_${channel}`;
    values[`:${channel}`] = enabled;
    sets.push(`#${channel} = :${channel}`);
  }
  if (change.schedule !== undefined) {
    names['#schedule'] = 'schedule';
    values[':schedule'] = change.schedule;
    sets.push('#schedule = :schedule');
  }
  if (change.enabled !== undefined) {
    names['#enabled'] = 'enabled';
    values[':enabled'] = change.enabled;
    sets.push('#enabled = :enabled');
  }
  if (target.kind === 'workflow') {
    names['#workflowDbId'] = 'workflowDbId';
    values[':workflowDbId'] = target.workflowDbId;
    sets.push('#workflowDbId = :workflowDbId');
  }
  const key =
    target.kind === 'global'
      ? keys.subscriberGlobalPreference(scope, subscriberId)
      : keys.subscriberWorkflowPreference(scope, subscriberId, target.workflowDbId);
  const written = await writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')} ADD #version :one`,
        ExpressionAttributeNames: names,
        ...(condition ? versionCondition(condition.ifVersion, values) : { ExpressionAttributeValues: values }),
      }),
    ),
  );
  if (!written) throw new StaleWriteError('Preference changed since it was read');
}

/** Still at the version read; none read: no item, or one written before versions were kept. */
function versionCondition(version: number | undefined, values: Record<string, unknown>) {
  return version === undefined
    ? { ConditionExpression: 'attribute_not_exists(#version)', ExpressionAttributeValues: values }
    : atVersion(version, values);
}

/** Sets the subscriber's global schedule unless one is set already (an inbox session's `defaultSchedule`). */
export async function setScheduleIfUnset(scope: EnvScope, subscriberId: string, schedule: Schedule): Promise<void> {
  await writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.subscriberGlobalPreference(scope, subscriberId),
        UpdateExpression: 'SET #kind = :kind, #type = :type, #updatedAt = :now, #schedule = :schedule ADD #version :one',
        ConditionExpression: 'attribute_not_exists(#schedule)',
        ExpressionAttributeNames: {
          '#kind': 'kind',
          '#type': 'type',
          '#updatedAt': 'updatedAt',
          '#schedule': 'schedule',
          '#version': 'version',
        },
        ExpressionAttributeValues: {
          ':kind': 'global',
          ':type': 'Preference',
          ':now': new Date().toISOString(),
          ':schedule': schedule,
          ':one': 1,
        },
      }),
    ),
  );
}
