import type { Channel } from '../integrations/catalogue.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type StoredWorkflow, type WorkflowPreferences } from './model.ts';
import type { V1PreferenceSettings } from './v1-schemas.ts';

// A v1 workflow's `critical` and `preferenceSettings` are the author's preferences of the stored
// model (its `userPreferences`): critical is `all.readOnly`, each channel flag a channel's
// `enabled`. Sent settings replace the stored ones whole, a channel left out being on, as the
// reference stores them; `critical` alone keeps the channels. The v1 view reads them back.

export function v1UserPreferences(
  current: Pick<StoredWorkflow, 'userPreferences' | 'defaultPreferences'> | undefined,
  input: { critical?: boolean; preferenceSettings?: V1PreferenceSettings },
): WorkflowPreferences | null {
  const base = current?.userPreferences ?? null;
  if (input.critical === undefined && input.preferenceSettings === undefined) return base;
  const from = base ?? current?.defaultPreferences ?? DEFAULT_WORKFLOW_PREFERENCES;
  const settings = input.preferenceSettings;
  const channels = settings
    ? Object.fromEntries(
        (Object.keys(DEFAULT_WORKFLOW_PREFERENCES.channels) as Channel[]).map((c) => [c, { enabled: settings[c] ?? true }]),
      )
    : from.channels;
  return { all: { ...from.all, readOnly: input.critical ?? from.all.readOnly }, channels };
}
