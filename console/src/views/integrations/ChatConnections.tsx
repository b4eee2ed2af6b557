import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { Empty, ErrorNote, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import {
  CONNECT_LABELS,
  consentUrl,
  endpointTarget,
  outcomeOf,
  useChatConnections,
  type Connection,
  type Endpoint,
} from './chat-connections.ts';
import { useIntegrationChange } from './queries.ts';
import type { Integration } from './types.ts';

// A chat integration's workspace connections (docs/chat.md, docs/console.md): the button that
// runs the provider's OAuth flow for a subscriber (the API's consent URL → the provider's consent
// page → the API's callback → back to the integration's Redirect URL, which can be this page),
// the outcome the callback reported, and the connections and endpoints the integration has, each
// connection with its state (active, or revoked once the provider refused its token).

export function ChatConnections({ environmentId, integration }: { environmentId: string; integration: Integration }) {
  const label = CONNECT_LABELS[integration.providerId];
  // Other providers have no workspaces to connect: nothing is shown, nothing is read.
  return label ? <WorkspaceConnections environmentId={environmentId} integration={integration} label={label} /> : null;
}

function WorkspaceConnections({ environmentId, integration, label }: { environmentId: string; integration: Integration; label: string }) {
  const query = useChatConnections(environmentId, integration.identifier);
  const [search] = useSearchParams();
  const outcome = outcomeOf(search);
  return (
    <section aria-labelledby="workspace-connections">
      <h2 id="workspace-connections">Workspace connections</h2>
      {outcome?.status === 'success' ? (
        <p role="status" className="connect-outcome">
          Workspace connected: connection <code>{outcome.connectionIdentifier}</code>.
        </p>
      ) : null}
      {outcome?.status === 'error' ? <ErrorNote title="The workspace was not connected" error={outcome.reason} /> : null}
      <ConnectForm environmentId={environmentId} integration={integration} label={label} />
      <QueryState query={query} what="the connections">
        {({ connections, endpoints }) => (
          <>
            <h3 id="connections-heading">Connections</h3>
            <ConnectionsTable connections={connections.data} />
            <h3 id="endpoints-heading">Endpoints</h3>
            <EndpointsTable endpoints={endpoints.data} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function ConnectForm({ environmentId, integration, label }: { environmentId: string; integration: Integration; label: string }) {
  const [subscriberId, setSubscriberId] = useState('');
  const connect = useMutation({
    mutationFn: () => consentUrl(environmentId, integration.identifier, subscriberId.trim()),
    // The provider's consent page: the flow leaves the console and comes back through the callback.
    onSuccess: (url) => window.location.assign(url),
  });
  const here = `${window.location.origin}${window.location.pathname}`;
  const redirectUrl = integration.credentials.redirectUrl;
  const returnHere = useIntegrationChange(environmentId, () =>
    api<Integration>(environmentId, `/v1/integrations/${encodeURIComponent(integration._id)}`, {
      method: 'PUT',
      body: { credentials: { ...integration.credentials, redirectUrl: here } },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate();
  };
  return (
    <>
      {redirectUrl === here ? (
        <p>After the consent page, the browser comes back to this page with the outcome.</p>
      ) : (
        <div className="redirect-note">
          <p>
            After the consent page, the browser goes to the integration’s Redirect URL
            {typeof redirectUrl === 'string' && redirectUrl ? (
              <>
                {' '}
                (<code>{redirectUrl}</code>)
              </>
            ) : (
              ', which is not set yet'
            )}
            . To see the outcome here, make this page the Redirect URL.
          </p>
          <button type="button" className="secondary" disabled={returnHere.isPending} onClick={() => returnHere.mutate()}>
            Return to this page after connecting
          </button>
          {returnHere.error ? <ErrorNote title="Could not change the Redirect URL" error={returnHere.error} /> : null}
        </div>
      )}
      <form onSubmit={submit} className="connect-form" aria-label={label}>
        <div>
          <label htmlFor="connect-subscriber">Subscriber ID</label>
          <input
            id="connect-subscriber"
            name="subscriberId"
            required
            value={subscriberId}
            aria-describedby="connect-subscriber-help"
            onChange={(e) => setSubscriberId(e.target.value)}
          />
          <small id="connect-subscriber-help">The subscriber whose workspace is connected; chat steps to them post with its token.</small>
        </div>
        <button type="submit" disabled={connect.isPending || !subscriberId.trim()} aria-busy={connect.isPending}>
          {label}
        </button>
      </form>
      {connect.error ? <ErrorNote title="Could not start the connection" error={connect.error} /> : null}
    </>
  );
}

function ConnectionsTable({ connections }: { connections: Connection[] }) {
  if (connections.length === 0) return <Empty>No workspace is connected to this integration yet.</Empty>;
  return (
    <ScrollTable labelledBy="connections-heading" columns={['Identifier', 'Workspace', 'Belongs to', 'Token', 'State', 'Updated']}>
      {connections.map((c) => (
        <tr key={c.identifier}>
          <td>
            <code>{c.identifier}</code>
          </td>
          <td>{c.workspace.name ? `${c.workspace.name} (${c.workspace.id})` : c.workspace.id}</td>
          <td>{c.subscriberId ? `Subscriber ${c.subscriberId}` : `Context ${c.contextKeys.join(', ')}`}</td>
          <td>
            <code>{c.auth.accessToken}</code>
          </td>
          <td>
            <StatusBadge status={c.status === 'active' ? 'Active' : 'Revoked'} />
            {c.revokedReason ? <small> {c.revokedReason}</small> : null}
          </td>
          <td>
            <LocalDateTime iso={c.updatedAt} />
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

function EndpointsTable({ endpoints }: { endpoints: Endpoint[] }) {
  if (endpoints.length === 0)
    return <Empty>No endpoint yet: create them with the API (channel endpoints) once a workspace is connected.</Empty>;
  return (
    <ScrollTable labelledBy="endpoints-heading" columns={['Identifier', 'Type', 'Posts to', 'Subscriber', 'Connection']}>
      {endpoints.map((e) => (
        <tr key={e.identifier}>
          <td>
            <code>{e.identifier}</code>
          </td>
          <td>{e.type}</td>
          <td>
            <code>{endpointTarget(e)}</code>
          </td>
          <td>{e.subscriberId ?? '—'}</td>
          <td>{e.connectionIdentifier ? <code>{e.connectionIdentifier}</code> : '—'}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}
