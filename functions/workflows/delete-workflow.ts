import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeWorkflow } from '#lib/workflows/remove.ts';

export const handler = httpHandler(route('deleteWorkflow'), ({ caller, params }) => removeWorkflow(caller, params.workflowId));
