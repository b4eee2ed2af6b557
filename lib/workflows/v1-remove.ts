import type { EnvScope } from '../store/keys.ts';
import { deleteWorkflow } from './repository.ts';
import { requireV1Workflow } from './v1-lookup.ts';

/** Deletes the workflow of that database id; `true`, as the reference answers. */
export async function removeV1Workflow(scope: EnvScope, templateId: string): Promise<true> {
  const workflow = await requireV1Workflow(scope, templateId);
  await deleteWorkflow(scope, workflow.workflowId);
  return true;
}
