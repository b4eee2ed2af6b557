import type { EnvScope } from '../scope.ts';
import { removeWorkflow } from './remove.ts';
import { requireV1Workflow } from './v1-lookup.ts';

/** Deletes the workflow of that database id; `true`, as the reference answers. */
export async function removeV1Workflow(scope: EnvScope, templateId: string): Promise<true> {
  await removeWorkflow(scope, templateId, requireV1Workflow);
  return true;
}
