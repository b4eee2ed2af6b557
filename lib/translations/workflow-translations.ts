import type { EnvScope } from '../scope.ts';
import type { StoredWorkflow } from '../workflows/model.ts';
import { copyTranslations } from './copy.ts';
import { deleteTranslationsOf, renameResource, type ResourceRef } from './repository.ts';

// What the workflow use cases do to a workflow's translations: delete them with the workflow, or
// when its translations are turned off (the reference's "disable and delete", irreversible),
// copy them on sync, and record a new workflowId (they are keyed by the database id, which stays).

export const workflowResource = (workflow: Pick<StoredWorkflow, '_id' | 'workflowId' | 'name'>): ResourceRef => ({
  resourceType: 'workflow',
  dbId: workflow._id,
  resourceId: workflow.workflowId,
  name: workflow.name,
});

export async function forgetWorkflowTranslations(scope: EnvScope, workflow: Pick<StoredWorkflow, '_id'>): Promise<void> {
  await deleteTranslationsOf(scope, { resourceType: 'workflow', dbId: workflow._id });
}

/** Workflow sync: the target workflow's translations become the source's (copy.ts). */
export function copyWorkflowTranslations(
  source: { scope: EnvScope; workflow: StoredWorkflow },
  target: { scope: EnvScope; workflow: StoredWorkflow },
): Promise<void> {
  return copyTranslations(
    { scope: source.scope, resource: workflowResource(source.workflow) },
    { scope: target.scope, resource: workflowResource(target.workflow) },
  );
}

/** After a workflow's workflowId changed (v1 PUT with `identifier`). */
export function renameWorkflowTranslations(scope: EnvScope, workflow: StoredWorkflow): Promise<void> {
  return renameResource(scope, workflowResource(workflow));
}
