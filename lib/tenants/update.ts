import { ConflictError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { requireTenant, tenantNotFound } from './get.ts';
import { moveTenant, updateTenant } from './repository.ts';
import type { Tenant, TenantChange } from './schemas.ts';

const MOVE_ATTEMPTS = 3;

/**
 * PATCH: only the sent fields change, `data` is replaced whole; an empty patch changes nothing.
 * A new `identifier` (the older API's PATCH) moves the tenant to it: 409 when it is taken.
 */
export async function patchTenant(scope: EnvScope, identifier: string, patch: TenantChange): Promise<Tenant> {
  if (patch.identifier !== undefined && patch.identifier !== identifier) return moveAndPatch(scope, identifier, patch.identifier, patch);
  if (patch.name === undefined && patch.data === undefined) return requireTenant(scope, identifier);
  const updated = await updateTenant(scope, identifier, patch, new Date().toISOString());
  if (!updated) throw tenantNotFound(identifier);
  return updated;
}

/** The tenant is read, then moved only if unchanged since; a change meanwhile is read again. */
async function moveAndPatch(scope: EnvScope, identifier: string, newIdentifier: string, patch: TenantChange): Promise<Tenant> {
  for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
    const current = await requireTenant(scope, identifier);
    const moved: Tenant = {
      ...current,
      identifier: newIdentifier,
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.data !== undefined && { data: patch.data }),
      updatedAt: new Date().toISOString(),
    };
    const outcome = await moveTenant(scope, current, moved);
    if (outcome === 'moved') return moved;
    if (outcome === 'identifier-taken') throw new ConflictError(`Tenant with identifier ${newIdentifier} already exists`);
  }
  throw new ConflictError(`Tenant with identifier ${identifier} is being changed concurrently`);
}
