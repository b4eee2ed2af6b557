import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listWorkflowsPage } from '#lib/workflows/list.ts';

export const handler = httpHandler(route('listWorkflows'), ({ caller, query }) => listWorkflowsPage(caller, query));
