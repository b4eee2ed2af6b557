import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateV1Workflow } from '#lib/workflows/v1-update.ts';

export const handler = httpHandler(route('updateNotificationTemplate'), ({ caller, params, body }) =>
  updateV1Workflow(caller, params.templateId, body),
);
