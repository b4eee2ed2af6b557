import type { Channel } from '../integrations/catalogue.ts';
import { channelsOf, isCritical, type StoredWorkflow } from '../workflows/model.ts';
import { decideChannel, layersOf, workflowEnabled, type Source } from './merge.ts';
import type { SubscriberChoices } from './repository.ts';
import type { PreferenceChannels, Schedule } from './schemas.ts';

// A subscriber's preferences as every API shows them, whatever its shape (the v2 subscriber
// preferences, the inbox's): each workflow's channels decided by merge.ts, and the global choices
// limited to the channels in use. Only the channels a workflow's active steps use are shown, as
// the reference strips inactive channels.

export type Criticality = 'critical' | 'nonCritical' | 'all';

export interface ResolvedWorkflowPreference<W extends StoredWorkflow = StoredWorkflow> {
  workflow: W;
  critical: boolean;
  enabled: boolean;
  channels: PreferenceChannels;
  overrides: { channel: Channel; source: Source }[];
}

export interface ResolvedGlobalPreference {
  /** False when the subscriber switched every workflow off. */
  enabled: boolean;
  channels: PreferenceChannels;
  schedule?: Schedule;
}

export function ofCriticality(workflow: StoredWorkflow, criticality: Criticality): boolean {
  const critical = isCritical(workflow);
  return criticality === 'all' || (criticality === 'critical') === critical;
}

/** `shown`: the channels to decide (by default those the workflow's active steps use). */
export function resolveWorkflowPreference<W extends StoredWorkflow>(
  workflow: W,
  choices: SubscriberChoices,
  shown: readonly Channel[] = channelsOf(workflow),
): ResolvedWorkflowPreference<W> {
  const critical = isCritical(workflow);
  const layers = layersOf(workflow, choices);
  const channels: PreferenceChannels = {};
  const overrides: ResolvedWorkflowPreference['overrides'] = [];
  for (const channel of shown) {
    const decision = decideChannel(layers, channel, critical);
    channels[channel] = decision.enabled;
    overrides.push({ channel, source: decision.source });
  }
  return { workflow, critical, enabled: workflowEnabled(layers, critical), channels, overrides };
}

/** The global choices for the channels the given workflows use (on unless switched off). */
export function resolveGlobalPreference(
  workflows: readonly Pick<StoredWorkflow, 'steps'>[],
  choices: SubscriberChoices,
): ResolvedGlobalPreference {
  const channels: PreferenceChannels = {};
  for (const workflow of workflows) {
    for (const channel of channelsOf(workflow)) channels[channel] = choices.global?.channels[channel] ?? true;
  }
  return { enabled: choices.global?.enabled ?? true, channels, ...(choices.global?.schedule && { schedule: choices.global.schedule }) };
}
