import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Workflow, WorkflowList } from './types.ts';
import { consolePath } from '../../components/console-path.ts';

// The area's reads, keyed under ['workflows', environmentId] so a change invalidates them all at once.

export const PAGE_SIZE = 20;

export const workflowsKey = (environmentId: string) => ['workflows', environmentId] as const;

export const workflowPath = (environmentId: string, workflowId: string) => consolePath(environmentId, 'workflows', workflowId);

export function useWorkflowList(environmentId: string, query: string, page: number) {
  return useQuery({
    queryKey: [...workflowsKey(environmentId), 'list', query, page],
    queryFn: ({ signal }) =>
      api<WorkflowList>(environmentId, '/v2/workflows', {
        query: { query, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, orderBy: 'updatedAt', orderDirection: 'DESC' },
        signal,
      }),
    // The next page's rows replace the current ones without a loading flash.
    placeholderData: (previous) => previous,
  });
}

export function useWorkflow(environmentId: string, workflowId: string) {
  return useQuery({
    queryKey: [...workflowsKey(environmentId), 'detail', workflowId],
    queryFn: ({ signal }) => api<Workflow>(environmentId, `/v2/workflows/${encodeURIComponent(workflowId)}`, { signal }),
  });
}
