import './webhooks.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { useBackToList } from '../../components/back-to-list.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { useParamsLink } from '../../components/list-pager.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { ErrorNote, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { TabNav } from '../../components/tab-nav.tsx';
import { AttemptsTable } from './AttemptsTable.tsx';
import { DeadLettersTable } from './DeadLettersTable.tsx';
import { EndpointForm } from './EndpointForm.tsx';
import { SecretReveal } from './SecretReveal.tsx';
import { endpointUrl, webhooksPath, type Endpoint, type EndpointInput, type EndpointWithSecret } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

const TABS = [
  ['attempts', 'Attempts'],
  ['dead-letters', 'Dead letters'],
  ['edit', 'Edit'],
] as const;

/** One endpoint: enable/disable, rotate its secret, delete; its attempts, dead letters and settings as tabs (`?tab=`). */
export function WebhookDetail() {
  const { environmentId = '', endpointId = '' } = useParams();
  const endpoint = useQuery({
    queryKey: ['webhooks', environmentId, 'one', endpointId],
    queryFn: ({ signal }) => api<Endpoint>(environmentId, endpointUrl(endpointId), { signal }),
  });
  return (
    <section>
      <Breadcrumb listTo={webhooksPath(environmentId)} listLabel="Webhooks" current={endpoint.data?.description || endpointId} />
      <QueryState query={endpoint} what="the webhook endpoint">
        {(data) => <EndpointView environmentId={environmentId} endpoint={data} />}
      </QueryState>
    </section>
  );
}

function EndpointView({ environmentId, endpoint }: { environmentId: string; endpoint: Endpoint }) {
  const [params] = useSearchParams();
  const linkTo = useParamsLink();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string>();
  const tab = TABS.find(([name]) => name === params.get('tab'))?.[0] ?? 'attempts';
  const invalidate = () => readAgain(queryClient, ['webhooks', environmentId]);
  const update = useMutation({
    mutationFn: (patch: Partial<EndpointInput>) =>
      api<Endpoint>(environmentId, endpointUrl(endpoint._id), { method: 'PATCH', body: patch }),
    onSuccess: invalidate,
  });

  return (
    <>
      <h1>{endpoint.description || 'Webhook endpoint'}</h1>
      <dl>
        <dt>URL</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
        <dt>Events</dt>
        <dd>{endpoint.eventTypes.length === 0 ? 'Every event' : endpoint.eventTypes.join(', ')}</dd>
        <dt>State</dt>
        <dd>
          <StatusBadge status={endpoint.enabled ? 'active' : 'inactive'} />
        </dd>
        <dt>Created</dt>
        <dd>
          <LocalDateTime iso={endpoint.createdAt} />
        </dd>
      </dl>
      {secret ? <SecretReveal secret={secret} onDone={() => setSecret(undefined)} /> : null}
      {update.error && tab !== 'edit' ? <ErrorNote error={update.error} title="Could not change the endpoint" /> : null}
      <div className="grid">
        <button
          type="button"
          className="secondary"
          disabled={update.isPending}
          aria-busy={update.isPending}
          onClick={() => update.mutate({ enabled: !endpoint.enabled })}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <RotateSecret environmentId={environmentId} endpoint={endpoint} onRotated={setSecret} />
        <DeleteEndpoint environmentId={environmentId} endpoint={endpoint} />
      </div>
      <TabNav
        label="Endpoint sections"
        tabs={TABS.map(([name, label]) => ({
          key: name,
          label,
          to: linkTo({ tab: name === 'attempts' ? undefined : name, after: undefined, before: undefined }),
          current: name === tab,
        }))}
      />
      {tab === 'attempts' ? <AttemptsTable environmentId={environmentId} endpointId={endpoint._id} /> : null}
      {tab === 'dead-letters' ? <DeadLettersTable environmentId={environmentId} endpointId={endpoint._id} /> : null}
      {tab === 'edit' ? (
        <>
          {update.isSuccess ? <p role="status">Saved.</p> : null}
          <EndpointForm
            id="edit-endpoint"
            key={endpoint.updatedAt}
            initial={endpoint}
            submitLabel="Save endpoint"
            pending={update.isPending}
            error={update.error}
            onSubmit={(input) => update.mutate(input)}
          />
        </>
      ) : null}
    </>
  );
}

function RotateSecret({
  environmentId,
  endpoint,
  onRotated,
}: {
  environmentId: string;
  endpoint: Endpoint;
  onRotated: (secret: string) => void;
}) {
  return (
    <ConfirmButton
      label="Rotate secret"
      title="Rotate the signing secret?"
      confirmLabel="Rotate"
      run={() => api<EndpointWithSecret>(environmentId, `${endpointUrl(endpoint._id)}/secret/rotate`, { method: 'POST' })}
      onDone={(rotated) => onRotated(rotated.secret)}
    >
      <p>Every attempt from now on is signed with a new secret; the current one stops at once.</p>
    </ConfirmButton>
  );
}

function DeleteEndpoint({ environmentId, endpoint }: { environmentId: string; endpoint: Endpoint }) {
  const backToList = useBackToList('webhooks');
  return (
    <ConfirmButton
      label="Delete"
      className="contrast"
      title="Delete this endpoint?"
      confirmLabel="Delete"
      run={() => api(environmentId, endpointUrl(endpoint._id), { method: 'DELETE' })}
      onDone={backToList}
    >
      <p>
        <code>{endpoint.url}</code> receives no more events; its pending retries are dropped.
      </p>
    </ConfirmButton>
  );
}
