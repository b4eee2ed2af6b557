import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../components/states.tsx';
import { useSession } from '../../session/use-session.ts';
import { workflowPath, workflowsKey } from './queries.ts';
import type { Workflow } from './types.ts';

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
        queryClient.invalidateQueries({ queryKey: workflowsKey(targetEnvironmentId) }),
        // The source's lastPublishedAt changes too.
        queryClient.invalidateQueries({ queryKey: workflowsKey(environmentId) }),
      ]),
  });
  if (targets.length === 0) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target) sync.mutate(target);
  };
  const synced = sync.isSuccess ? targets.find((environment) => environment.id === sync.data) : undefined;

  return (
    <form onSubmit={submit} className="workflow-sync">
      <label htmlFor="sync-target">Sync to another environment</label>
      <fieldset role="group">
        <select id="sync-target" value={target} onChange={(event) => setTarget(event.target.value)}>
          {targets.map((environment) => (
            <option key={environment.id} value={environment.id}>
              {environment.name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={sync.isPending} aria-busy={sync.isPending}>
          Sync
        </button>
      </fieldset>
      {synced && (
        <p role="status">
          Synced to {synced.name}. <Link to={workflowPath(synced.id, workflow.workflowId)}>Open it in {synced.name}</Link>
        </p>
      )}
      {sync.error && <ErrorNote error={sync.error} title="Could not sync" />}
    </form>
  );
}
