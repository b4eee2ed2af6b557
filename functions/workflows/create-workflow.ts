import { route } from '#infra/routes/workflows.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createWorkflow } from '#lib/workflows/create.ts';

export const handler = idempotentHttpHandler(route('createWorkflow'), ({ caller, body }) => createWorkflow(caller, body));
