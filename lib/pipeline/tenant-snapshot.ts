import type { EnvScope } from '../scope.ts';
import type { Tenant } from '../tenants/schemas.ts';
import { getTenant, updateTenant } from '../tenants/repository.ts';
import type { StoredNotification, TenantRef, TenantSnapshot } from './model.ts';

// The tenant a trigger names, as its templates and conditions see it (`tenant.identifier`,
// `tenant.name`, `tenant.data.*`): the stored tenant after the trigger's own update. The fan-out
// reads it once per trigger (fan-out.ts) and each notification keeps a copy, so no job reads it
// again; a tenant whose data is too large to copy into every notification is read by the jobs
// that need it instead (the reference reads it at every send).

/** A snapshot larger than this (as JSON) is not copied into notifications. */
export const MAX_TENANT_SNAPSHOT_CHARS = 8 * 1024;

/** The trigger's name and data go into the stored tenant when they differ; answers the tenant as stored after. */
export async function applyTriggerTenant(scope: EnvScope, ref: TenantRef): Promise<Tenant | undefined> {
  const stored = await getTenant(scope, ref.identifier);
  if (!stored) return undefined;
  const changed =
    (ref.name !== undefined && ref.name !== stored.name) ||
    (ref.data !== undefined && JSON.stringify(ref.data) !== JSON.stringify(stored.data));
  if (!changed) return stored;
  const patch = { ...(ref.name !== undefined && { name: ref.name }), ...(ref.data !== undefined && { data: ref.data }) };
  return (await updateTenant(scope, ref.identifier, patch, new Date().toISOString())) ?? stored;
}

export function snapshotOf(tenant: Tenant): TenantSnapshot {
  return { _id: tenant._id, identifier: tenant.identifier, name: tenant.name, data: tenant.data };
}

/** The snapshot a notification keeps, unless it is too large to keep. */
export function keptSnapshot(tenant: TenantSnapshot | undefined): TenantSnapshot | undefined {
  return tenant && JSON.stringify(tenant).length <= MAX_TENANT_SNAPSHOT_CHARS ? tenant : undefined;
}

/** What templates and conditions see as `tenant` for a notification's job. */
export async function tenantVariable(scope: EnvScope, notification: StoredNotification): Promise<Record<string, unknown>> {
  if (notification.tenantSnapshot) return { ...notification.tenantSnapshot };
  if (!notification.tenant) return {};
  const stored = await getTenant(scope, notification.tenant.identifier);
  // A tenant deleted since the trigger: what the trigger said of it.
  return stored ? { ...snapshotOf(stored) } : { ...notification.tenant };
}
