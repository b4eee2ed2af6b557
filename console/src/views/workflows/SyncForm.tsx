import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { useSession } from '../../session/use-session.ts';
import { workflowPath, workflowsKey } from './queries.ts';
import type { Workflow } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

// PUT /v2/workflows/{id}/sync with the caller's own key: the API copies the workflow into
// another environment of the organization, so the console needs no key of the target.

export function SyncForm({ environmentId, workflow }: { environmentId: string; workflow: Workflow }) {
  const session = useSession();
  const targets = (session?.environments ?? []).filter((environment) => environment.id !== environmentId);
  const [target, setTarget] = useState(targets[0]?.id ?? '');
  const queryClient = useQueryClient();
  const sync = useMutation({
    mutationFn: (targetEnvironmentId: string) =>
      api<Workflow>(environmentId, `/v2/workflows/${encodeURIComponent(workflow.workflowId)}/sync`, {
        method: 'PUT',
        body: { targetEnvironmentId },
      }).then(() => targetEnvironmentId),
    onSuccess: (targetEnvironmentId) =>
      Promise.all([
        readAgain(queryClient, workflowsKey(targetEnvironmentId)),
        // The source's lastPublishedAt changes too.
        readAgain(queryClient, workflowsKey(environmentId)),
      ]),
  });
  if (targets.length === 0) return null;

  const targetName = targets.find((environment) => environment.id === target)?.name ?? 'the other environment';
  const synced = sync.isSuccess ? targets.find((environment) => environment.id === sync.data) : undefined;

  // Syncing replaces the workflow in another environment (Production, usually): asked first.
  return (
    <div className="workflow-sync">
      <label htmlFor="sync-target">Sync to another environment</label>
      <fieldset role="group">
        <select id="sync-target" value={target} onChange={(event) => setTarget(event.target.value)}>
          {targets.map((environment) => (
            <option key={environment.id} value={environment.id}>
              {environment.name}
            </option>
          ))}
        </select>
        <ConfirmButton
          label="Sync"
          className="secondary outline"
          disabled={!target}
          title={`Sync ${workflow.name} to ${targetName}?`}
          confirmLabel={`Sync to ${targetName}`}
          run={() => sync.mutateAsync(target)}
        >
          <p>
            {targetName} gets this workflow as it is here, replacing its own copy if it has one. Its triggers there use the new steps at
            once.
          </p>
        </ConfirmButton>
      </fieldset>
      {synced && (
        <p role="status">
          Synced to {synced.name}. <Link to={workflowPath(synced.id, workflow.workflowId)}>Open it in {synced.name}</Link>
        </p>
      )}
    </div>
  );
}
