import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { Empty, ErrorNote, QueryState } from '../../components/states.tsx';
import { preferencesQueryKey } from './query-keys.ts';
import { CHANNELS, type Channel, type ChannelFlags, type Preferences } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

// GET /v2/subscribers/{id}/preferences as one table: the global row, then a row per workflow
// with a switch for each channel it has; a switch calls PATCH with that one channel.

const CHANNEL_LABELS: Record<Channel, string> = { in_app: 'In-App', email: 'Email', sms: 'SMS', chat: 'Chat', push: 'Push' };

interface Change {
  /** Omitted: the global preferences. */
  workflowId?: string;
  channel: Channel;
  enabled: boolean;
}

export function PreferencesPanel({ environmentId, subscriberId }: { environmentId: string; subscriberId: string }) {
  const queryClient = useQueryClient();
  const key = preferencesQueryKey(environmentId, subscriberId);
  const path = `/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences`;
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => api<Preferences>(environmentId, path, { signal }) });
  const change = useMutation({
    mutationFn: ({ workflowId, channel, enabled }: Change) =>
      api<Preferences>(environmentId, path, {
        method: 'PATCH',
        body: { ...(workflowId && { workflowId }), channels: { [channel]: enabled } },
      }),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
    onSettled: () => readAgain(queryClient, key),
  });

  const row = (name: string, channels: ChannelFlags, workflowId?: string) => (
    <tr key={workflowId ?? 'global'}>
      <th scope="row">{name}</th>
      {CHANNELS.map((channel) => {
        const enabled = channels[channel];
        const label = `${name}: ${CHANNEL_LABELS[channel]}`;
        return (
          <td key={channel}>
            {enabled === undefined ? (
              <>
                <span aria-hidden="true">—</span>
                <span className="visually-hidden">not used</span>
              </>
            ) : (
              <input
                type="checkbox"
                role="switch"
                aria-label={label}
                checked={enabled}
                disabled={change.isPending}
                onChange={(event) => change.mutate({ ...(workflowId && { workflowId }), channel, enabled: event.target.checked })}
              />
            )}
          </td>
        );
      })}
    </tr>
  );

  return (
    <QueryState query={query} what="preferences">
      {(preferences) => (
        <>
          {change.error && <ErrorNote error={change.error} title="Could not change the preference" />}
          <div className="table-scroll subscriber-preferences">
            <table>
              <thead>
                <tr>
                  <th scope="col">Workflow</th>
                  {CHANNELS.map((channel) => (
                    <th scope="col" key={channel}>
                      {CHANNEL_LABELS[channel]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {row('All workflows (global)', preferences.global.channels)}
                {preferences.workflows.map((w) => row(w.workflow.name, w.channels, w.workflow.identifier))}
              </tbody>
            </table>
          </div>
          {preferences.workflows.length === 0 && <Empty>No workflow to set preferences for yet: create one in Workflows.</Empty>}
          <p>
            <small>
              A channel switched off globally is off for every workflow; a workflow's own switch decides within what the global ones allow.
            </small>
          </p>
        </>
      )}
    </QueryState>
  );
}
