import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeV1Workflow } from '#lib/workflows/v1-remove.ts';

export const handler = httpHandler(route('deleteNotificationTemplate'), ({ caller, params }) =>
  removeV1Workflow(caller, params.templateId),
);
