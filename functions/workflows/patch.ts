import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { patchWorkflow } from '#lib/workflows/patch.ts';

export const handler = httpHandler(route('patchWorkflow'), ({ caller, params, body }) =>
  patchWorkflow(caller, params.workflowId, body),
);
