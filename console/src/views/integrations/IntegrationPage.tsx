import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { findProvider } from '../../../../lib/integrations/catalogue.ts';
import { api } from '../../api/client.ts';
import { ErrorNote, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { CHANNEL_LABELS, hasPrimary } from './channels.ts';
import { Conditions } from './Conditions.tsx';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { fieldMessages, OtherFieldMessages } from '../../components/api-field-error.tsx';
import { IntegrationForm, type IntegrationFields } from './IntegrationForm.tsx';
import { integrationsKey, useIntegrationChange, useIntegrations } from './queries.ts';
import type { Integration } from './types.ts';
import { withWarning } from './warning.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { consolePath } from '../../components/console-path.ts';
import { ChatConnections } from './ChatConnections.tsx';
import { readAgain } from '../../api/read-again.ts';

/** One integration: its settings, actions (activate, primary, delete), conditions and edit form. */
export function IntegrationPage() {
  const { environmentId = '', integrationId = '' } = useParams();
  const query = useIntegrations(environmentId);
  return (
    <section>
      <Breadcrumb listTo={consolePath(environmentId, 'integrations')} listLabel="Integrations" />
      <QueryState query={query} what="the integration">
        {(integrations) => {
          const integration = integrations.find((i) => i._id === integrationId);
          if (!integration) {
            return (
              <ErrorNote
                title="Integration not found"
                error={`This environment has no integration ${integrationId}. It may have been deleted; the list shows the ones there are.`}
              />
            );
          }
          return <IntegrationDetail key={integration._id} environmentId={environmentId} integration={integration} />;
        }}
      </QueryState>
    </section>
  );
}

function IntegrationDetail({ environmentId, integration }: { environmentId: string; integration: Integration }) {
  const navigate = useNavigate();
  const path = `/v1/integrations/${encodeURIComponent(integration._id)}`;
  const provider = findProvider(integration.providerId);
  const update = useIntegrationChange(environmentId, (body: Partial<IntegrationFields>) =>
    withWarning((onHeaders) => api<Integration>(environmentId, path, { method: 'PUT', body, onHeaders })),
  );
  const createdWith = (useLocation().state as { warning?: string } | null)?.warning;
  const warning = update.data ? update.data.warning : createdWith;
  const toggle = useIntegrationChange(environmentId, (active: boolean) =>
    api<Integration>(environmentId, path, { method: 'PUT', body: { active } }),
  );
  const setPrimary = useIntegrationChange(environmentId, () => api(environmentId, `${path}/set-primary`, { method: 'POST' }));
  const queryClient = useQueryClient();
  // One action's failure is shown until another action runs.
  const actions = [toggle, setPrimary];
  const act = (run: () => void) => () => {
    for (const action of actions) action.reset();
    run();
  };
  const actionError = toggle.error ?? setPrimary.error;
  const busy = toggle.isPending || setPrimary.isPending;
  const remove = () => {
    for (const action of actions) action.reset();
    return api(environmentId, path, { method: 'DELETE' });
  };
  // Back to the list as soon as it is gone, before the list is read again: this page would
  // otherwise say "not found" in between.
  const removed = async () => {
    await navigate(consolePath(environmentId, 'integrations'));
    await readAgain(queryClient, integrationsKey(environmentId));
  };

  return (
    <>
      <hgroup>
        <h1>{integration.name}</h1>
        <p>
          {provider?.displayName ?? integration.providerId} · {CHANNEL_LABELS[integration.channel]}
        </p>
      </hgroup>

      {warning ? (
        <p role="status" className="integration-warning">
          {warning}
        </p>
      ) : null}

      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={integration.active ? 'Active' : 'Inactive'} />
        </dd>
        {hasPrimary(integration.channel) ? (
          <>
            <dt>Primary</dt>
            <dd>{integration.primary ? 'Primary: chosen first for its channel' : 'No'}</dd>
          </>
        ) : null}
        <dt>Identifier</dt>
        <dd>
          <code>{integration.identifier}</code>
        </dd>
        <dt>Provider id</dt>
        <dd>
          <code>{integration.providerId}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <LocalDateTime iso={integration.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <LocalDateTime iso={integration.updatedAt} />
        </dd>
      </dl>

      <div className="button-row" role="group" aria-label="Actions">
        <button type="button" disabled={busy} aria-busy={toggle.isPending} onClick={act(() => toggle.mutate(!integration.active))}>
          {integration.active ? 'Deactivate' : 'Activate'}
        </button>
        {hasPrimary(integration.channel) && !integration.primary ? (
          <button type="button" disabled={busy} aria-busy={setPrimary.isPending} onClick={act(() => setPrimary.mutate())}>
            Set as primary
          </button>
        ) : null}
        <ConfirmButton
          label="Delete"
          title={`Delete ${integration.name}?`}
          confirmLabel="Delete integration"
          disabled={busy}
          run={remove}
          onDone={removed}
        >
          <p>It will deliver no more messages. The console cannot bring it back.</p>
        </ConfirmButton>
      </div>
      {actionError ? (
        <>
          <ErrorNote error={actionError} title="The action failed" />
          <OtherFieldMessages messages={fieldMessages(actionError)} shown={[]} />
        </>
      ) : null}

      <h2>Conditions</h2>
      <Conditions conditions={integration.conditions ?? []} />

      <ChatConnections environmentId={environmentId} integration={integration} />

      <h2>Settings and credentials</h2>
      {provider ? (
        <IntegrationForm
          key={integration.updatedAt}
          provider={provider}
          current={integration}
          submitLabel="Save changes"
          busy={update.isPending}
          error={update.error}
          onSubmit={(fields) => update.mutate(fields)}
        />
      ) : (
        <ErrorNote
          title="Unknown provider"
          error={`The console does not know the provider ${integration.providerId}, so it cannot edit this integration.`}
        />
      )}
      {update.isSuccess ? <p role="status">Saved.</p> : null}
    </>
  );
}
