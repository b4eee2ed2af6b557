import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { viewContext } from './environment-channels.ts';
import { requireWorkflow } from './lookup.ts';
import type { StoredStep, StoredWorkflow } from './model.ts';
import type { WorkflowResponse } from './schemas.ts';
import { toWorkflowResponse } from './view.ts';

// One step of a workflow, named by its stepId or database id, as the workflow's view shows it.

export function findStep(workflow: StoredWorkflow, ref: string): StoredStep {
  const step = workflow.steps.find((s) => s.stepId === ref) ?? workflow.steps.find((s) => s._id === ref);
  if (!step) throw new NotFoundError(`Step ${ref} not found in workflow ${workflow.workflowId}`);
  return step;
}

export async function getWorkflowStep(scope: EnvScope, workflowRef: string, stepRef: string): Promise<WorkflowResponse['steps'][number]> {
  const workflow = await requireWorkflow(scope, workflowRef);
  const step = findStep(workflow, stepRef);
  const view = toWorkflowResponse(workflow, await viewContext(scope, [workflow]));
  return view.steps.find((s) => s._id === step._id)!;
}
