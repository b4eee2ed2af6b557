import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getTenant } from './repository.ts';
import type { Tenant } from './schemas.ts';

export const tenantNotFound = (identifier: string) => new NotFoundError(`Tenant with identifier ${identifier} not found`);

export async function requireTenant(scope: EnvScope, identifier: string): Promise<Tenant> {
  const tenant = await getTenant(scope, identifier);
  if (!tenant) throw tenantNotFound(identifier);
  return tenant;
}
