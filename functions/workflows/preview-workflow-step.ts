import { route } from '#infra/routes/workflows.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { previewStep } from '#lib/step-preview/preview.ts';

export const handler = idempotentHttpHandler(route('previewWorkflowStep'), ({ caller, params, body }) =>
  previewStep(caller, params.workflowId, params.stepId, body),
);
