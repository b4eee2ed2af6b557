import { route } from '#infra/routes/layouts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeLayout } from '#lib/layouts/remove.ts';

export const handler = httpHandler(route('deleteLayout'), ({ caller, params }) => removeLayout(caller, params.layoutId));
