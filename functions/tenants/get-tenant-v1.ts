import { route } from '#infra/routes/tenants.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { requireTenant } from '#lib/tenants/get.ts';

export const handler = httpHandler(route('getTenantV1'), ({ caller, params }) => requireTenant(caller, params.identifier));
