import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getWorkflowStep } from '#lib/workflows/get-step.ts';

export const handler = httpHandler(route('getWorkflowStep'), ({ caller, params }) =>
  getWorkflowStep(caller, params.workflowId, params.stepId),
);
