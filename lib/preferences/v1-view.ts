import { CHANNELS } from '../integrations/catalogue.ts';
import type { StoredWorkflow } from '../workflows/model.ts';
import { toEmbeddedWorkflow } from '../workflows/v1-view.ts';
import type { SubscriberChoices } from './repository.ts';
import { resolveGlobalPreference, type ResolvedWorkflowPreference } from './resolve.ts';
import type { PreferenceChannels, V1GlobalPreference, V1WorkflowPreference } from './schemas.ts';

// The legacy v1 API's shapes of the preferences every API resolves (resolve.ts): one item per
// workflow, `{template, preference}`, and the global item, `{preference}`.

export function v1WorkflowItem({ workflow, critical, enabled, channels, overrides }: ResolvedWorkflowPreference): V1WorkflowPreference {
  return {
    template: { _id: workflow._id, name: workflow.name, tags: workflow.tags, critical, triggers: toEmbeddedWorkflow(workflow).triggers },
    preference: { enabled, channels, overrides },
  };
}

/**
 * The global item: every channel (on unless switched off), or with `includeInactive` false only
 * the channels the given workflows use.
 */
export function v1GlobalItem(
  workflows: readonly StoredWorkflow[],
  choices: SubscriberChoices,
  includeInactive: boolean,
): V1GlobalPreference {
  const resolved = resolveGlobalPreference(workflows, choices);
  const channels: PreferenceChannels = includeInactive
    ? Object.fromEntries(CHANNELS.map((channel) => [channel, choices.global?.channels[channel] ?? true]))
    : resolved.channels;
  return { preference: { enabled: resolved.enabled, channels } };
}
