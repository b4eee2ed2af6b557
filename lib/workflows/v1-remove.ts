import type { EnvScope } from '../scope.ts';
import { forgetWorkflowTranslations } from '../translations/workflow-translations.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { deleteWorkflow } from './repository.ts';
import { requireV1Workflow } from './v1-lookup.ts';

/** Deletes the workflow of that database id; `true`, as the reference answers. */
export async function removeV1Workflow(scope: EnvScope, templateId: string): Promise<true> {
  await retryOnStaleWrite(async () => {
    const workflow = await requireV1Workflow(scope, templateId);
    // Translations first: a crash between leaves the workflow, whose deletion can be asked again.
    await forgetWorkflowTranslations(scope, workflow);
    await deleteWorkflow(workflow);
  });
  return true;
}
