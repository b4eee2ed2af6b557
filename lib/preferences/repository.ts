import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHANNELS } from '../integrations/providers.ts';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { keys, type EnvScope } from '../store/keys.ts';
import { queryAll } from '../store/query-pages.ts';
import type { PreferenceChannels, Schedule } from './schemas.ts';

// A subscriber's own preference choices: one global item and one item per workflow, all in the
// subscriber's partition, so one Query reads them all. Each channel is its own attribute, so a
// change of one channel is a single atomic update that never overwrites a concurrent change of
// another.

export interface GlobalChoice {
  channels: PreferenceChannels;
  schedule?: Schedule;
  updatedAt: string;
}

export interface WorkflowChoice {
  workflowDbId: string;
  channels: PreferenceChannels;
  updatedAt: string;
}

export interface SubscriberChoices {
  global?: GlobalChoice;
  /** By workflow database id. */
  workflows: Map<string, WorkflowChoice>;
}

export async function getSubscriberChoices(scope: EnvScope, subscriberId: string): Promise<SubscriberChoices> {
  const { pk, skPrefix } = keys.subscriberPreferences(scope, subscriberId);
  const choices: SubscriberChoices = { workflows: new Map() };
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
  });
  for (const item of items) {
    const channels = channelsOf(item);
    const updatedAt = item.updatedAt as string;
    if (item.kind === 'global') {
      choices.global = { channels, updatedAt, ...(item.schedule ? { schedule: item.schedule as Schedule } : {}) };
    } else {
      const workflowDbId = item.workflowDbId as string;
      choices.workflows.set(workflowDbId, { workflowDbId, channels, updatedAt });
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

/** Sets the given channels (and, globally, the schedule); channels not given keep their value. */
export async function updateChoice(
  scope: EnvScope,
  subscriberId: string,
  target: ChoiceTarget,
  change: { channels?: PreferenceChannels; schedule?: Schedule },
): Promise<void> {
  const names: Record<string, string> = { '#kind': 'kind', '#type': 'type', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':kind': target.kind, ':type': 'Preference', ':now': new Date().toISOString() };
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
  if (target.kind === 'workflow') {
    names['#workflowDbId'] = 'workflowDbId';
    values[':workflowDbId'] = target.workflowDbId;
    sets.push('#workflowDbId = :workflowDbId');
  }
  const key =
    target.kind === 'global'
      ? keys.subscriberGlobalPreference(scope, subscriberId)
      : keys.subscriberWorkflowPreference(scope, subscriberId, target.workflowDbId);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}
