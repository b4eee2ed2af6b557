import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { forgetWorkflowTranslations, renameWorkflowTranslations } from '../translations/workflow-translations.ts';
import { requireWorkflow, type WorkflowFinder } from './lookup.ts';
import type { StoredWorkflow } from './model.ts';
import { saveRenamedWorkflow, saveWorkflow, type VersionedWorkflow } from './repository.ts';

// The one change of a stored workflow, for every surface (v2 PUT and PATCH in patch.ts, the v1
// update and status in v1-update.ts and v1-status.ts): read, change, store conditioned on the
// version read, again on a lost race. A surface brings its own lookup (the v1 API names a workflow
// by database id) and its own change; what follows a write (the translations renamed with a new
// trigger identifier, deleted when turned off) is decided here once.

export type WorkflowChange = (current: StoredWorkflow) => StoredWorkflow | Promise<StoredWorkflow>;

export async function changeWorkflow(
  scope: EnvScope,
  ref: string,
  change: WorkflowChange,
  find: WorkflowFinder = requireWorkflow,
): Promise<VersionedWorkflow> {
  let translated = false;
  let renamed = false;
  const saved = await retryOnStaleWrite(async () => {
    const stored = await find(scope, ref);
    const { version: _version, ...current } = stored;
    translated = current.isTranslationEnabled;
    const next = await change(current);
    renamed = next.workflowId !== current.workflowId;
    return renamed ? saveRenamedWorkflow(next, stored) : saveWorkflow(next, stored);
  });
  if (renamed) await renameWorkflowTranslations(scope, saved);
  // Turning translations off deletes them, as the reference's "disable and delete" does.
  if (translated && !saved.isTranslationEnabled) await forgetWorkflowTranslations(scope, saved);
  return saved;
}
