import type { EnvScope } from '../store/keys.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { deleteWorkflow } from './repository.ts';
import { requireV1Workflow } from './v1-lookup.ts';

/** Deletes the workflow of that database id; `true`, as the reference answers. */
export async function removeV1Workflow(scope: EnvScope, templateId: string): Promise<true> {
  await retryOnStaleWrite(async () => deleteWorkflow(await requireV1Workflow(scope, templateId)));
  return true;
}
