import { route } from '#infra/routes/tenants.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listTenants } from '#lib/tenants/list.ts';

export const handler = httpHandler(route('listTenants'), ({ caller, query }) => listTenants(caller, query));
