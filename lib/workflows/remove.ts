import type { EnvScope } from '../scope.ts';
import { forgetWorkflowTranslations } from '../translations/workflow-translations.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { requireWorkflow, type WorkflowFinder } from './lookup.ts';
import { deleteWorkflow } from './repository.ts';

/** Deletes a workflow and its translations; `find` is the surface's lookup (v1-remove.ts names it by database id). */
export async function removeWorkflow(scope: EnvScope, ref: string, find: WorkflowFinder = requireWorkflow): Promise<void> {
  await retryOnStaleWrite(async () => {
    const workflow = await find(scope, ref);
    // Translations first: a crash between leaves the workflow, whose deletion can be asked again.
    await forgetWorkflowTranslations(scope, workflow);
    await deleteWorkflow(workflow);
  });
}
