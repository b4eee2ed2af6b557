import type { EnvScope } from '../scope.ts';
import { listWorkflows } from './repository.ts';
import type { ListV1WorkflowsQuery } from './v1-schemas.ts';
import { findV1Workflow } from './v1-lookup.ts';
import { toV1Workflow, type V1Workflow } from './v1-view.ts';

// Reading workflows through the v1 API: every workflow of the environment (those made through
// v2 too), in the v1 shape. The page is cut from the environment's whole list (one index query),
// newest first, as the v2 list is.

export interface V1WorkflowPage {
  page: number;
  pageSize: number;
  totalCount: number;
  data: V1Workflow[];
}

export async function getV1Workflow(scope: EnvScope, ref: string): Promise<V1Workflow> {
  return toV1Workflow(await findV1Workflow(scope, ref));
}

export async function listV1Workflows(scope: EnvScope, query: ListV1WorkflowsQuery): Promise<V1WorkflowPage> {
  const search = query.query?.trim().toLowerCase();
  const all = (await listWorkflows(scope))
    .filter((w) => !search || w.name.toLowerCase().includes(search) || w.workflowId.toLowerCase().includes(search))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id));
  const start = query.page * query.limit;
  return { page: query.page, pageSize: query.limit, totalCount: all.length, data: all.slice(start, start + query.limit).map(toV1Workflow) };
}
