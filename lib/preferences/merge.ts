import type { Channel } from '../integrations/catalogue.ts';
import type { WorkflowPreferences } from '../workflows/model.ts';
import type { StoredWorkflow } from '../workflows/model.ts';
import type { SubscriberChoices } from './repository.ts';
import type { PreferenceChannels } from './schemas.ts';

// How a subscriber's channel preference for one workflow is decided. Layers apply in order,
// later ones winning for the channels they set: the workflow's defaults, its author's settings,
// the subscriber's global choices, the subscriber's choices for this workflow. A critical
// workflow stops after the author's layer: the subscriber cannot switch it off. Apart from its
// channels, a subscriber may switch a whole workflow off (the reference's `enabled`): its
// channels keep their decisions, and no channel step of it delivers; and switch every workflow
// off at once (the global switch of the legacy API), which critical workflows ignore too.

export interface PreferenceLayers {
  defaults: WorkflowPreferences;
  author: WorkflowPreferences | null;
  subscriberGlobal?: PreferenceChannels;
  subscriberWorkflow?: PreferenceChannels;
  /** False when the subscriber switched the workflow off. */
  subscriberWorkflowEnabled?: boolean;
  /** False when the subscriber switched every workflow off (the global switch). */
  subscriberGlobalEnabled?: boolean;
}

export type Source = 'template' | 'subscriber';

export interface ChannelDecision {
  enabled: boolean;
  source: Source;
}

export function decideChannel(layers: PreferenceLayers, channel: Channel, critical: boolean): ChannelDecision {
  const workflowLayers = layers.author ? [layers.defaults, layers.author] : [layers.defaults];
  let enabled = true;
  // A workflow document that says nothing of a channel falls back to its `all` switch.
  for (const doc of workflowLayers) enabled = doc.channels[channel]?.enabled ?? doc.all.enabled ?? enabled;
  let source: Source = 'template';
  if (critical) return { enabled, source };

  for (const choice of [layers.subscriberGlobal, layers.subscriberWorkflow]) {
    const value = choice?.[channel];
    if (value !== undefined) {
      enabled = value;
      source = 'subscriber';
    }
  }
  return { enabled, source };
}

/**
 * Whether the workflow delivers to the subscriber at all: not when the subscriber switched it, or
 * every workflow, off; a critical one always does.
 */
export function workflowEnabled(layers: PreferenceLayers, critical: boolean): boolean {
  return critical || (layers.subscriberWorkflowEnabled !== false && layers.subscriberGlobalEnabled !== false);
}

/** The four layers for one workflow and one subscriber's stored choices. */
export function layersOf(
  workflow: Pick<StoredWorkflow, '_id' | 'defaultPreferences' | 'userPreferences'>,
  choices: SubscriberChoices,
): PreferenceLayers {
  const workflowChoice = choices.workflows.get(workflow._id);
  return {
    defaults: workflow.defaultPreferences,
    author: workflow.userPreferences,
    ...(choices.global && { subscriberGlobal: choices.global.channels }),
    ...(workflowChoice && { subscriberWorkflow: workflowChoice.channels }),
    ...(workflowChoice?.enabled !== undefined && { subscriberWorkflowEnabled: workflowChoice.enabled }),
    ...(choices.global?.enabled !== undefined && { subscriberGlobalEnabled: choices.global.enabled }),
  };
}
