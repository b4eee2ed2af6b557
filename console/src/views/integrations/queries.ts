import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Integration } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

// One list query per environment: the API has no GET of a single integration, so the
// integration's page reads it from the list too, and every change invalidates that one query.
// GET /v1/integrations answers with the whole organization's integrations; a view shows the ones
// of its own environment.

export const integrationsKey = (environmentId: string) => ['integrations', environmentId] as const;

export function useIntegrations(environmentId: string) {
  return useQuery({
    queryKey: integrationsKey(environmentId),
    queryFn: ({ signal }) => api<Integration[]>(environmentId, '/v1/integrations', { signal }),
    select: (all) => all.filter((integration) => integration._environmentId === environmentId),
  });
}

/** A change to the environment's integrations: the list is read again once it is done. */
export function useIntegrationChange<Input, Output>(environmentId: string, change: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => readAgain(client, integrationsKey(environmentId)),
  });
}
