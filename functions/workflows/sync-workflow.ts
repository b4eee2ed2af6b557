import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { syncWorkflow } from '#lib/workflows/sync.ts';

export const handler = httpHandler(route('syncWorkflow'), ({ caller, params, body }) =>
  syncWorkflow(caller, params.workflowId, body.targetEnvironmentId),
);
