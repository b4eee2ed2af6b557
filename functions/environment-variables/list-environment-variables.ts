import { route } from '#infra/routes/environment-variables.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listVariableViews } from '#lib/environment-variables/manage.ts';

export const handler = httpHandler(route('listEnvironmentVariables'), ({ caller, query }) => listVariableViews(caller, query.search));
