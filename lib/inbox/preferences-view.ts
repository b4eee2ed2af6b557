import type { ResolvedGlobalPreference, ResolvedWorkflowPreference } from '../preferences/resolve.ts';
import type { InboxPreference } from './preferences-schemas.ts';

// The inbox's PreferencesResponse, from the preferences every API resolves (lib/preferences).

/** The global item always carries a schedule: off until the subscriber sets one. */
export function globalPreferenceItem(global: ResolvedGlobalPreference): InboxPreference {
  return { level: 'global', enabled: global.enabled, channels: global.channels, schedule: global.schedule ?? { isEnabled: false } };
}

export function workflowPreferenceItem({ workflow, critical, enabled, channels, overrides }: ResolvedWorkflowPreference): InboxPreference {
  return {
    level: 'template',
    enabled,
    channels,
    overrides,
    workflow: {
      id: workflow._id,
      identifier: workflow.workflowId,
      name: workflow.name,
      critical,
      tags: workflow.tags,
      severity: workflow.severity,
    },
  };
}
