import { route } from '#infra/routes/environment-variables.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createVariable } from '#lib/environment-variables/manage.ts';

export const handler = idempotentHttpHandler(route('createEnvironmentVariable'), ({ caller, body }) => createVariable(caller, body));
