import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateWorkflow } from '#lib/workflows/update.ts';

export const handler = httpHandler(route('updateWorkflow'), ({ caller, params, body }) => updateWorkflow(caller, params.workflowId, body));
