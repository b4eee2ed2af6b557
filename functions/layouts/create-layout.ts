import { route } from '#infra/routes/layouts.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createLayout } from '#lib/layouts/create.ts';

export const handler = idempotentHttpHandler(route('createLayout'), ({ caller, body }) => createLayout(caller, body));
