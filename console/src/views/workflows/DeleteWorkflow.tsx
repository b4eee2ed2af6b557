import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { consolePath } from '../../components/console-path.ts';
import { workflowsKey } from './queries.ts';
import type { Workflow } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

/** DELETE /v2/workflows/{id}, asked first; back to the list once it is gone. */
export function DeleteWorkflow({ environmentId, workflow }: { environmentId: string; workflow: Workflow }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <ConfirmButton
      label="Delete"
      className="secondary outline"
      title={`Delete ${workflow.name}?`}
      confirmLabel="Delete the workflow"
      run={() => api(environmentId, `/v2/workflows/${encodeURIComponent(workflow.workflowId)}`, { method: 'DELETE' })}
      onDone={async () => {
        queryClient.removeQueries({ queryKey: [...workflowsKey(environmentId), 'detail', workflow.workflowId] });
        await readAgain(queryClient, workflowsKey(environmentId));
        await navigate(consolePath(environmentId, 'workflows'));
      }}
    >
      <p>
        Its steps and their content are deleted, and triggers of <code>{workflow.workflowId}</code> are refused from then on. Notifications
        already sent stay in Activity.
      </p>
    </ConfirmButton>
  );
}
