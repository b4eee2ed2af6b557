import { route } from '#infra/routes/workflows.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { createWorkflow } from '#lib/workflows/create.ts';

export const handler = httpHandler(route('createWorkflow'), ({ caller, body }) => createWorkflow(caller, body));
