import { route } from '#infra/routes/environment-variables.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { variableUsage } from '#lib/environment-variables/usage.ts';

export const handler = httpHandler(route('getEnvironmentVariableUsage'), ({ caller, params }) => variableUsage(caller, params.variableKey));
