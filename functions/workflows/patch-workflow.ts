import { route } from '#infra/routes/workflows.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { patchWorkflow } from '#lib/workflows/patch.ts';

export const handler = idempotentHttpHandler(route('patchWorkflow'), ({ caller, params, body }) =>
  patchWorkflow(caller, params.workflowId, body),
);
