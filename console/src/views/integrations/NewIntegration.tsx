import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PROVIDERS, findProvider, type ProviderDef } from '../../../../lib/integrations/catalogue.ts';
import { api } from '../../api/client.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { CHANNEL_LABELS, CHANNELS, isChannel } from './channels.ts';
import { IntegrationForm, type IntegrationFields } from './IntegrationForm.tsx';
import { useIntegrationChange } from './queries.ts';
import { withWarning } from './warning.ts';
import type { Integration } from './types.ts';
import { Empty } from '../../components/states.tsx';
import { consolePath } from '../../components/console-path.ts';

/**
 * A new integration in three steps, each kept in the URL (`?channel=&providerId=`): the channel,
 * a provider of that channel from the catalogue the API itself uses, then its form. The choices
 * are links, so the whole flow works with Tab and Enter.
 */
export function NewIntegration() {
  const { environmentId = '' } = useParams();
  const [params] = useSearchParams();
  const channelParam = params.get('channel');
  const channel = isChannel(channelParam) ? channelParam : undefined;
  const provider = channel ? findProvider(params.get('providerId') ?? '') : undefined;
  const chosen = provider?.channel === channel ? provider : undefined;

  return (
    <section>
      <Breadcrumb listTo={consolePath(environmentId, 'integrations')} listLabel="Integrations" current="New" />
      <h1>New integration</h1>

      <h2>1. Channel</h2>
      <ul className="choice-list" aria-label="Channels">
        {CHANNELS.map((c) => (
          <li key={c}>
            <Link to={`?channel=${c}`} aria-current={c === channel ? 'true' : undefined}>
              {CHANNEL_LABELS[c]}
            </Link>
          </li>
        ))}
      </ul>

      {channel ? (
        <>
          <h2>2. Provider</h2>
          <ul className="choice-list" aria-label="Providers">
            {PROVIDERS.filter((p) => p.channel === channel).map((p) => (
              <li key={p.id}>
                <Link
                  to={`?channel=${channel}&providerId=${encodeURIComponent(p.id)}`}
                  aria-current={p.id === chosen?.id ? 'true' : undefined}
                >
                  {p.displayName}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Empty>Choose the channel the integration delivers to.</Empty>
      )}

      {chosen ? (
        <article>
          <header>
            <h2>
              3. {chosen.displayName} <small>({chosen.id})</small>
            </h2>
          </header>
          <CreateForm key={chosen.id} environmentId={environmentId} provider={chosen} />
        </article>
      ) : channel ? (
        <Empty>Choose a provider to fill in its credentials.</Empty>
      ) : null}
    </section>
  );
}

/** The form of one provider: its own request state, so another provider starts clean. */
function CreateForm({ environmentId, provider }: { environmentId: string; provider: ProviderDef }) {
  const navigate = useNavigate();
  const create = useIntegrationChange(environmentId, (fields: IntegrationFields) =>
    withWarning((onHeaders) =>
      api<{ data: Integration }>(environmentId, '/v1/integrations', {
        method: 'POST',
        body: { providerId: provider.id, channel: provider.channel, ...fields },
        onHeaders,
      }),
    ),
  );
  return (
    <IntegrationForm
      provider={provider}
      submitLabel="Create integration"
      busy={create.isPending}
      error={create.error}
      onSubmit={(fields) =>
        create.mutate(fields, {
          // The page shows the warning once, for the request that had it.
          onSuccess: ({ body, warning }) =>
            navigate(consolePath(environmentId, 'integrations', body.data._id), { state: warning && { warning } }),
        })
      }
    />
  );
}
