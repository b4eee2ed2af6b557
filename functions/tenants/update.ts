import { route } from '#infra/routes/tenants.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { patchTenant } from '#lib/tenants/update.ts';

export const handler = httpHandler(route('patchTenant'), ({ caller, params, body }) => patchTenant(caller, params.identifier, body));
