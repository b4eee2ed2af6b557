import { route } from '#infra/routes/layouts.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { previewLayout } from '#lib/layouts/preview.ts';

export const handler = idempotentHttpHandler(route('previewLayout'), ({ caller, params, body }) =>
  previewLayout(caller, params.layoutId, body),
);
