import { route } from '#infra/routes/environments.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { diffEnvironment } from '#lib/promotion/diff.ts';

export const handler = idempotentHttpHandler(route('diffEnvironment'), ({ caller, params, body }) =>
  diffEnvironment(caller, params.targetEnvironmentId, body.sourceEnvironmentId),
);
