import { NotFoundError } from '../errors.ts';
import type { Channel } from '../integrations/providers.ts';
import type { EnvScope } from '../store/keys.ts';
import { channelsOf, isCritical } from '../workflows/model.ts';
import { listWorkflows } from '../workflows/repository.ts';
import { decideChannel, layersOf } from './merge.ts';
import { getSubscriberWithChoices } from './repository.ts';
import type { PreferenceChannels, SubscriberPreferences, WorkflowPreference } from './schemas.ts';

export type Criticality = 'critical' | 'nonCritical' | 'all';

/**
 * A subscriber's preferences for every active workflow of the environment (of the requested
 * criticality), each channel decided by the layers of merge.ts, and the global block limited to
 * the channels those workflows use.
 */
export async function getSubscriberPreferences(
  scope: EnvScope,
  subscriberId: string,
  criticality: Criticality,
): Promise<SubscriberPreferences> {
  const [{ subscriber, choices }, workflows] = await Promise.all([getSubscriberWithChoices(scope, subscriberId), listWorkflows(scope)]);
  if (!subscriber) throw new NotFoundError(`Subscriber with id: ${subscriberId} not found`);

  const used = new Set<Channel>();
  const result: WorkflowPreference[] = [];
  for (const workflow of workflows) {
    const critical = isCritical(workflow);
    if (!workflow.active) continue;
    if ((criticality === 'critical' && !critical) || (criticality === 'nonCritical' && critical)) continue;

    const layers = layersOf(workflow, choices);
    const channels: PreferenceChannels = {};
    const overrides: WorkflowPreference['overrides'] = [];
    for (const channel of channelsOf(workflow)) {
      used.add(channel);
      const decision = decideChannel(layers, channel, critical);
      channels[channel] = decision.enabled;
      overrides.push({ channel, source: decision.source });
    }
    result.push({
      enabled: true,
      channels,
      overrides,
      workflow: { slug: workflow.slug, identifier: workflow.workflowId, name: workflow.name, updatedAt: workflow.updatedAt },
    });
  }

  const globalChannels: PreferenceChannels = {};
  for (const channel of used) globalChannels[channel] = choices.global?.channels[channel] ?? true;
  return {
    global: {
      enabled: true,
      channels: globalChannels,
      ...(choices.global?.schedule && { schedule: choices.global.schedule }),
    },
    workflows: result,
  };
}
