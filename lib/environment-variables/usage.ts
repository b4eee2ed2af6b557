import type { EnvScope } from '../scope.ts';
import { listWorkflows } from '../workflows/repository.ts';
import { requireVariable } from './manage.ts';

// GET /v1/environment-variables/{variableKey}/usage: the caller's environment's workflows whose
// steps name the variable (`env.KEY` anywhere in their control values: Liquid, or an editor
// document's variable node), as the reference finds them. `env.KEY` is not `env.KEY_MORE`.

export async function variableUsage(scope: EnvScope, key: string): Promise<{ workflows: { name: string; workflowId: string }[] }> {
  const variable = await requireVariable(scope.organizationId, key);
  const mention = new RegExp(`(^|[^\\w$])env\\.${variable.key}(?![\\w$])`);
  const workflows = await listWorkflows(scope);
  return {
    workflows: workflows
      .filter((workflow) => workflow.steps.some((step) => mention.test(JSON.stringify(step.controlValues))))
      .map((workflow) => ({ name: workflow.name, workflowId: workflow.workflowId })),
  };
}
