import { route } from '#infra/routes/environment-variables.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeVariable } from '#lib/environment-variables/manage.ts';

export const handler = httpHandler(route('deleteEnvironmentVariable'), ({ caller, params }) => removeVariable(caller, params.variableKey));
