import type { CursorPage } from '../../api/cursor-page.ts';
import './webhooks.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { CursorPager, useCursor } from '../../components/list-pager.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { EndpointForm } from './EndpointForm.tsx';
import { SecretReveal } from './SecretReveal.tsx';
import { endpointPath, type Endpoint, type EndpointInput, type EndpointWithSecret } from './types.ts';
import { FormDisclosure } from '../../components/form-disclosure.tsx';
import { readAgain } from '../../api/read-again.ts';

/** The environment's webhook endpoints, paged by cursor in the URL; a new one shows its secret once. */
export function WebhooksList() {
  const { environmentId = '' } = useParams();
  const cursor = useCursor();
  const queryClient = useQueryClient();
  const endpoints = useQuery({
    queryKey: ['webhooks', environmentId, 'list', cursor],
    queryFn: ({ signal }) =>
      api<CursorPage<Endpoint>>(environmentId, '/v2/webhooks/endpoints', {
        query: { limit: 20, orderDirection: 'ASC', ...cursor },
        signal,
      }),
  });
  const create = useMutation({
    mutationFn: (input: EndpointInput) => api<EndpointWithSecret>(environmentId, '/v2/webhooks/endpoints', { method: 'POST', body: input }),
    onSuccess: () => readAgain(queryClient, ['webhooks', environmentId]),
  });

  return (
    <section>
      <h1>Webhooks</h1>
      <p>Each endpoint receives a signed POST (Standard Webhooks) for the events it subscribes to.</p>
      {create.data ? (
        <>
          <p role="status">
            Endpoint created: <Link to={endpointPath(environmentId, create.data._id)}>{create.data.url}</Link>
          </p>
          <SecretReveal secret={create.data.secret} onDone={() => create.reset()} />
        </>
      ) : null}
      <QueryState query={endpoints} what="webhook endpoints">
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No webhook endpoints yet: add one below with the URL that should receive the events.</Empty>
          ) : (
            <>
              <ScrollTable columns={['URL', 'Description', 'Events', 'State', 'Created']}>
                {page.data.map((endpoint) => (
                  <tr key={endpoint._id}>
                    <td>
                      <Link to={endpointPath(environmentId, endpoint._id)}>{endpoint.url}</Link>
                    </td>
                    <td>{endpoint.description || '—'}</td>
                    <td>{endpoint.eventTypes.length === 0 ? 'All' : endpoint.eventTypes.join(', ')}</td>
                    <td>
                      <StatusBadge status={endpoint.enabled ? 'active' : 'inactive'} />
                    </td>
                    <td>
                      <LocalDateTime iso={endpoint.createdAt} />
                    </td>
                  </tr>
                ))}
              </ScrollTable>
              <CursorPager previous={page.previous} next={page.next} />
            </>
          )
        }
      </QueryState>
      <FormDisclosure summary="New endpoint">
        {/* A new key after each create: the form starts empty again. */}
        <EndpointForm
          key={create.data?._id ?? 'new'}
          id="new-endpoint"
          submitLabel="Create endpoint"
          pending={create.isPending}
          error={create.error}
          onSubmit={(input) => create.mutate(input)}
        />
      </FormDisclosure>
    </section>
  );
}
