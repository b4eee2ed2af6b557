import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { ErrorNote } from '../../components/states.tsx';
import { workflowsKey } from './queries.ts';
import type { Workflow } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

/**
 * Switches the workflow on or off (PATCH `active`); the list and this view read the new state.
 * Switching off stops every trigger of it, so it is asked first; switching on is not.
 */
export function ActiveToggle({ environmentId, workflow }: { environmentId: string; workflow: Workflow }) {
  const queryClient = useQueryClient();
  const setActive = (active: boolean) =>
    api<Workflow>(environmentId, `/v2/workflows/${encodeURIComponent(workflow.workflowId)}`, { method: 'PATCH', body: { active } });
  const refresh = () => readAgain(queryClient, workflowsKey(environmentId));
  const activate = useMutation({ mutationFn: () => setActive(true), onSuccess: refresh });

  if (workflow.active) {
    return (
      <ConfirmButton
        label="Deactivate"
        className="secondary outline"
        title={`Deactivate ${workflow.name}?`}
        confirmLabel="Deactivate"
        run={() => setActive(false)}
        onDone={refresh}
      >
        <p>Its triggers are accepted but nothing is sent until it is activated again.</p>
      </ConfirmButton>
    );
  }
  return (
    <>
      <button
        type="button"
        className="secondary outline"
        disabled={activate.isPending}
        aria-busy={activate.isPending}
        onClick={() => activate.mutate()}
      >
        Activate
      </button>
      {activate.error && <ErrorNote error={activate.error} title="Could not activate" />}
    </>
  );
}
