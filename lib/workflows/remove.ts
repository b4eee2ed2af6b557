import type { EnvScope } from '../store/keys.ts';
import { requireWorkflow } from './lookup.ts';
import { deleteWorkflow } from './repository.ts';

export async function removeWorkflow(scope: EnvScope, ref: string): Promise<void> {
  const workflow = await requireWorkflow(scope, ref);
  await deleteWorkflow(scope, workflow.workflowId);
}
