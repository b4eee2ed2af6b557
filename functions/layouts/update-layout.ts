import { route } from '#infra/routes/layouts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { changeLayout } from '#lib/layouts/update.ts';

export const handler = httpHandler(route('updateLayout'), ({ caller, params, body }) => changeLayout(caller, params.layoutId, body));
