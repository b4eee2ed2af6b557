import type { EnvScope } from '../scope.ts';
import { viewContext } from './environment-channels.ts';
import type { StoredWorkflow } from './model.ts';
import { listWorkflows } from './repository.ts';
import type { ListWorkflowsQuery, WorkflowList } from './schemas.ts';
import { toWorkflowListItem } from './view.ts';

// A page of the environment's workflows. An environment holds tens to hundreds of workflows, so
// the page is cut from the environment's whole list (one index query), which also gives an exact
// totalCount and lets `query` match inside names and tags.

function matches(workflow: StoredWorkflow, query: string): boolean {
  const q = query.toLowerCase();
  return (
    workflow.name.toLowerCase().includes(q) ||
    workflow.workflowId.toLowerCase().includes(q) ||
    workflow.tags.some((tag) => tag.toLowerCase().includes(q))
  );
}

export async function listWorkflowsPage(scope: EnvScope, query: ListWorkflowsQuery): Promise<WorkflowList> {
  const search = query.query?.trim();
  const all = (await listWorkflows(scope)).filter((workflow) => !search || matches(workflow, search));
  const key = query.orderBy;
  const sign = query.orderDirection === 'ASC' ? 1 : -1;
  all.sort((a, b) => sign * (a[key].localeCompare(b[key]) || a._id.localeCompare(b._id)));

  const page = all.slice(query.offset, query.offset + query.limit);
  const context = await viewContext(scope, page);
  return { workflows: page.map((workflow) => toWorkflowListItem(workflow, context)), totalCount: all.length };
}
