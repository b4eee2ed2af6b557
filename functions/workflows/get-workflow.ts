import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getWorkflowView } from '#lib/workflows/get.ts';

export const handler = httpHandler(route('getWorkflow'), ({ caller, params }) => getWorkflowView(caller, params.workflowId));
