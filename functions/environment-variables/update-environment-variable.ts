import { route } from '#infra/routes/environment-variables.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateVariable } from '#lib/environment-variables/manage.ts';

export const handler = idempotentHttpHandler(route('updateEnvironmentVariable'), ({ caller, params, body }) =>
  updateVariable(caller, params.variableKey, body),
);
