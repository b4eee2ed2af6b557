import { route } from '#infra/routes/tenants.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createTenant } from '#lib/tenants/create.ts';

export const handler = idempotentHttpHandler(route('createTenantV1'), ({ caller, body }) => createTenant(caller, body));
