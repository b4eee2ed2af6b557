import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { EnvScope } from '../store/keys.ts';
import { getWorkflow, getWorkflowByDbId, type VersionedWorkflow } from './repository.ts';
import { workflowIdFromSlug } from './slug.ts';

// The v2 API names a workflow in the path by its workflowId, its database id or its slug.

export async function resolveWorkflow(scope: EnvScope, ref: string): Promise<VersionedWorkflow | undefined> {
  const byWorkflowId = await getWorkflow(scope, ref);
  if (byWorkflowId) return byWorkflowId;
  const dbId = isId(ref) ? ref : workflowIdFromSlug(ref);
  return dbId ? getWorkflowByDbId(scope, dbId) : undefined;
}

export async function requireWorkflow(scope: EnvScope, ref: string): Promise<VersionedWorkflow> {
  const workflow = await resolveWorkflow(scope, ref);
  if (!workflow) throw new NotFoundError('Workflow cannot be found');
  return workflow;
}
