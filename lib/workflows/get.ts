import type { EnvScope } from '../scope.ts';
import { viewContext } from './environment-channels.ts';
import { requireWorkflow } from './lookup.ts';
import type { WorkflowResponse } from './schemas.ts';
import { toWorkflowResponse } from './view.ts';

export async function getWorkflowView(scope: EnvScope, ref: string): Promise<WorkflowResponse> {
  const workflow = await requireWorkflow(scope, ref);
  return toWorkflowResponse(workflow, await viewContext(scope, [workflow]));
}
