import { route } from '#infra/routes/layouts.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { duplicateLayout } from '#lib/layouts/duplicate.ts';

export const handler = idempotentHttpHandler(route('duplicateLayout'), ({ caller, params, body }) =>
  duplicateLayout(caller, params.layoutId, body),
);
