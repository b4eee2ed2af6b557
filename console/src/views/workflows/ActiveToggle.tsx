import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../components/states.tsx';
import { workflowsKey } from './queries.ts';
import type { Workflow } from './types.ts';

/** Switches the workflow on or off (PATCH `active`); the list and this view read the new state. */
export function ActiveToggle({ environmentId, workflow }: { environmentId: string; workflow: Workflow }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () =>
      api<Workflow>(environmentId, `/v2/workflows/${encodeURIComponent(workflow.workflowId)}`, {
        method: 'PATCH',
        body: { active: !workflow.active },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsKey(environmentId) }),
  });
  return (
    <>
      <button
        type="button"
        className={workflow.active ? 'secondary' : ''}
        disabled={toggle.isPending}
        aria-busy={toggle.isPending}
        onClick={() => toggle.mutate()}
      >
        {workflow.active ? 'Deactivate' : 'Activate'}
      </button>
      {toggle.error && <ErrorNote error={toggle.error} title={workflow.active ? 'Could not deactivate' : 'Could not activate'} />}
    </>
  );
}
