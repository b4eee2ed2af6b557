import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { setV1WorkflowStatus } from '#lib/workflows/v1-status.ts';

export const handler = httpHandler(route('updateNotificationTemplateStatus'), ({ caller, params, body }) =>
  setV1WorkflowStatus(caller, params.templateId, body.active),
);
