import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { getWorkflow, getWorkflowByDbId, type VersionedWorkflow } from './repository.ts';

// The v1 API names a workflow by its database id (`templateId`); GET also takes its trigger
// identifier. Unknown in the caller's environment: 404.

const notFound = (ref: string) => new NotFoundError(`Template with id ${ref} not found`);

/** By database id only (update, delete, status). */
export async function requireV1Workflow(scope: EnvScope, templateId: string): Promise<VersionedWorkflow> {
  const workflow = isId(templateId) ? await getWorkflowByDbId(scope, templateId) : undefined;
  if (!workflow) throw notFound(templateId);
  return workflow;
}

/** By database id, else by trigger identifier (GET). */
export async function findV1Workflow(scope: EnvScope, ref: string): Promise<VersionedWorkflow> {
  const workflow = (isId(ref) ? await getWorkflowByDbId(scope, ref) : undefined) ?? (await getWorkflow(scope, ref));
  if (!workflow) throw notFound(ref);
  return workflow;
}
