import { route } from '#infra/routes/workflows-v1.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getV1Workflow } from '#lib/workflows/v1-read.ts';

export const handler = httpHandler(route('getNotificationTemplate'), ({ caller, params }) => getV1Workflow(caller, params.templateId));
