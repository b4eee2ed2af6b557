import { Link, useParams, useSearchParams } from 'react-router';
import { findProvider } from '../../../../lib/integrations/catalogue.ts';
import { Empty, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { CHANNEL_LABELS, CHANNELS, hasPrimary, isChannel, type Channel } from './channels.ts';
import { useIntegrations } from './queries.ts';
import type { Integration } from './types.ts';
import { ScrollTable } from '../../components/scroll-table.tsx';

/** The environment's integrations, one table per channel; `?channel=` keeps to one channel. */
export function IntegrationsList() {
  const { environmentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const channelParam = params.get('channel');
  const channel = isChannel(channelParam) ? channelParam : undefined;
  const query = useIntegrations(environmentId);
  const shownChannels = channel ? [channel] : CHANNELS;

  return (
    <section>
      <hgroup>
        <h1>Integrations</h1>
        <p>The providers this environment delivers through, by channel.</p>
      </hgroup>
      <div className="integrations-toolbar">
        <label>
          Channel
          <select name="channel" value={channel ?? ''} onChange={(e) => setParams(e.target.value ? { channel: e.target.value } : {})}>
            <option value="">All channels</option>
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {CHANNEL_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <Link to={channel ? `new?channel=${channel}` : 'new'} className="new-integration">
          New integration
        </Link>
      </div>
      <QueryState query={query} what="integrations">
        {(integrations) => (
          <>
            {shownChannels.map((c) => (
              <ChannelTable key={c} channel={c} integrations={integrations.filter((i) => i.channel === c)} />
            ))}
          </>
        )}
      </QueryState>
    </section>
  );
}

function ChannelTable({ channel, integrations }: { channel: Channel; integrations: Integration[] }) {
  const primary = hasPrimary(channel);
  const headingId = `channel-${channel}`;
  const label = CHANNEL_LABELS[channel];
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{label}</h2>
      {integrations.length === 0 ? (
        <Empty>
          No {label} integration. <Link to={`new?channel=${channel}`}>Add one</Link> to deliver {label} steps.
        </Empty>
      ) : (
        <ScrollTable
          labelledBy={headingId}
          columns={['Name', 'Provider', 'Identifier', 'Status', ...(primary ? ['Primary'] : []), 'Conditions']}
        >
          {integrations.map((integration) => (
            <tr key={integration._id}>
              <td>
                <Link to={encodeURIComponent(integration._id)}>{integration.name}</Link>
              </td>
              <td>{findProvider(integration.providerId)?.displayName ?? integration.providerId}</td>
              <td>
                <code>{integration.identifier}</code>
              </td>
              <td>
                <StatusBadge status={integration.active ? 'Active' : 'Inactive'} />
              </td>
              {primary ? <td>{integration.primary ? <strong>Primary</strong> : '—'}</td> : null}
              <td>{integration.conditions?.length ?? 0}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
