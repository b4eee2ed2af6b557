import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { Empty, QueryState } from '../../components/states.tsx';
import type { LayoutUsage } from './types.ts';
import { consolePath } from '../../components/console-path.ts';

/** The workflows whose email steps name this layout (why a delete is refused). */
export function LayoutUsageList({ environmentId, layoutId }: { environmentId: string; layoutId: string }) {
  const usage = useQuery({
    queryKey: ['layouts', environmentId, 'usage', layoutId],
    queryFn: ({ signal }) => api<LayoutUsage>(environmentId, `/v2/layouts/${encodeURIComponent(layoutId)}/usage`, { signal }),
  });
  return (
    <QueryState query={usage} what="the workflows using it">
      {(data) =>
        data.workflows.length === 0 ? (
          <Empty>No workflow's email step names this layout.</Empty>
        ) : (
          <ul>
            {data.workflows.map((workflow) => (
              <li key={workflow.workflowId}>
                <Link to={consolePath(environmentId, 'workflows', workflow.workflowId)}>{workflow.name}</Link>{' '}
                <code>{workflow.workflowId}</code>
              </li>
            ))}
          </ul>
        )
      }
    </QueryState>
  );
}
