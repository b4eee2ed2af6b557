import { route } from '#infra/routes/tenants.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { createTenant } from '#lib/tenants/create.ts';

export const handler = idempotentHttpHandler(route('createTenant'), ({ caller, body }) => createTenant(caller, body));
