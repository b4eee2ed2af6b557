import { route } from '#infra/routes/environments.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { publishEnvironment } from '#lib/promotion/publish.ts';

export const handler = idempotentHttpHandler(route('publishEnvironment'), ({ caller, params, body }) =>
  publishEnvironment(caller, params.targetEnvironmentId, body),
);
