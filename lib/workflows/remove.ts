import type { EnvScope } from '../scope.ts';
import { forgetWorkflowTranslations } from '../translations/workflow-translations.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { requireWorkflow } from './lookup.ts';
import { deleteWorkflow } from './repository.ts';

export async function removeWorkflow(scope: EnvScope, ref: string): Promise<void> {
  await retryOnStaleWrite(async () => {
    const workflow = await requireWorkflow(scope, ref);
    // Translations first: a crash between leaves the workflow, whose deletion can be asked again.
    await forgetWorkflowTranslations(scope, workflow);
    await deleteWorkflow(workflow);
  });
}
