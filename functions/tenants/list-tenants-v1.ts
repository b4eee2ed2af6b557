import { route } from '#infra/routes/tenants.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { listTenantsV1 } from '#lib/tenants/v1-list.ts';

export const handler = httpHandler(route('listTenantsV1'), ({ caller, query }) => listTenantsV1(caller, query));
