import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { updateEnvironment } from '#lib/accounts/update-environment.ts';

export const handler = httpHandler(route('updateEnvironment'), ({ caller, params, body }) =>
  updateEnvironment(caller, params.environmentId, body),
);
