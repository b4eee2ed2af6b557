import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { deleteEnvironment } from '#lib/accounts/delete-environment.ts';

export const handler = httpHandler(route('deleteEnvironment'), ({ caller, params }) => deleteEnvironment(caller, params.environmentId));
