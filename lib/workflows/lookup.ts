import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getWorkflow, getWorkflowByDbId, type VersionedWorkflow } from './repository.ts';
import { findByRef } from './slug.ts';

// The v2 API names a workflow in the path by its workflowId, its database id or its slug.

/** A surface's lookup of the workflow its path names: 404 when the environment has none (v1-lookup.ts for v1). */
export type WorkflowFinder = (scope: EnvScope, ref: string) => Promise<VersionedWorkflow>;

export function resolveWorkflow(scope: EnvScope, ref: string): Promise<VersionedWorkflow | undefined> {
  return findByRef(
    ref,
    'wf',
    (workflowId) => getWorkflow(scope, workflowId),
    (dbId) => getWorkflowByDbId(scope, dbId),
  );
}

export async function requireWorkflow(scope: EnvScope, ref: string): Promise<VersionedWorkflow> {
  const workflow = await resolveWorkflow(scope, ref);
  if (!workflow) throw new NotFoundError('Workflow cannot be found');
  return workflow;
}
