import { route } from '#infra/routes/layouts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getLayoutResponse } from '#lib/layouts/get.ts';

export const handler = httpHandler(route('getLayout'), ({ caller, params }) => getLayoutResponse(caller, params.layoutId));
