import { route } from '#infra/routes/layouts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { layoutUsage } from '#lib/layouts/usage.ts';

export const handler = httpHandler(route('layoutUsage'), ({ caller, params }) => layoutUsage(caller, params.layoutId));
