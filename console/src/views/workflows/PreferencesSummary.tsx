import { StepTypeName } from '../../components/named.tsx';
import type { ChannelPreferences, Workflow } from './types.ts';

// The preferences a subscriber starts from: the author's where set, else the workflow default.

export function PreferencesSummary({ preferences }: { preferences: Workflow['preferences'] }) {
  const effective: ChannelPreferences = preferences.user ?? preferences.default;
  const channels = Object.entries(effective.channels);
  const source = preferences.user ? 'Set by the workflow’s author.' : 'The workflow defaults.';
  return (
    <>
      <p>
        {source} All channels {effective.all.enabled ? 'on' : 'off'} by default
        {effective.all.readOnly ? '; subscribers cannot change them (read-only).' : '; subscribers may change them.'}
      </p>
      {channels.length > 0 && (
        <ul className="workflow-channels">
          {channels.map(([channel, { enabled }]) => (
            <li key={channel}>
              <StepTypeName type={channel} />: {enabled ? 'on' : 'off'}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
