import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { insertTenant } from './repository.ts';
import type { CreateTenantInput, Tenant } from './schemas.ts';

/** Creates a tenant in the caller's environment; 409 when its identifier is taken. */
export async function createTenant(scope: EnvScope, input: CreateTenantInput): Promise<Tenant> {
  const now = new Date().toISOString();
  const tenant: Tenant = {
    _id: newId(Date.parse(now)),
    identifier: input.identifier,
    name: input.name,
    data: input.data ?? {},
    _environmentId: scope.environmentId,
    _organizationId: scope.organizationId,
    createdAt: now,
    updatedAt: now,
  };
  await insertTenant(scope, tenant);
  return tenant;
}
