import { route } from '#infra/routes/tenants.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { createTenant } from '#lib/tenants/create.ts';

export const handler = httpHandler(route('createTenant'), ({ caller, body }) => createTenant(caller, body));
