import { route } from '#infra/routes/contexts.ts';
import { patchContext } from '#lib/contexts/update.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('updateContext'), ({ caller, params, body }) =>
  patchContext(caller, params.type, params.id, body),
);
