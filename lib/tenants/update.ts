import type { EnvScope } from '../store/keys.ts';
import { requireTenant, tenantNotFound } from './get.ts';
import { updateTenant } from './repository.ts';
import type { Tenant, TenantPatch } from './schemas.ts';

/** PATCH: only the sent fields change, `data` is replaced whole; an empty patch changes nothing. */
export async function patchTenant(scope: EnvScope, identifier: string, patch: TenantPatch): Promise<Tenant> {
  if (patch.name === undefined && patch.data === undefined) return requireTenant(scope, identifier);
  const updated = await updateTenant(scope, identifier, patch, new Date().toISOString());
  if (!updated) throw tenantNotFound(identifier);
  return updated;
}
