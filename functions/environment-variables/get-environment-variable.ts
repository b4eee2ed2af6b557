import { route } from '#infra/routes/environment-variables.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getVariableView } from '#lib/environment-variables/manage.ts';

export const handler = httpHandler(route('getEnvironmentVariable'), ({ caller, params }) => getVariableView(caller, params.variableKey));
