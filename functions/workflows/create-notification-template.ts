import { route } from '#infra/routes/workflows-v1.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createV1Workflow } from '#lib/workflows/v1-create.ts';

export const handler = idempotentHttpHandler(route('createNotificationTemplate'), ({ caller, body }) => createV1Workflow(caller, body));
