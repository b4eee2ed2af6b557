import { route } from '#infra/routes/tenants.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { patchTenant } from '#lib/tenants/update.ts';

export const handler = idempotentHttpHandler(route('updateTenantV1'), ({ caller, params, body }) =>
  patchTenant(caller, params.identifier, body),
);
