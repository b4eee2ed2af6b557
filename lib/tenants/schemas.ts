import * as z from '../zod.ts';
import { cursorQueryFields } from '../http/cursor-list.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';

// Shapes of tenants, of the requests that change them and of their cursor list. Unknown body
// fields are ignored (zod strips them), as the reference does.

const name = z.string().check(z.minLength(1, 'name must not be empty'), z.maxLength(1024));
const data = z.record(z.string(), z.unknown(), { error: 'data must be an object' });

export const createTenantBody = z.object({ identifier: externalIdSchema('identifier'), name, data: z.optional(data) });
export type CreateTenantInput = z.infer<typeof createTenantBody>;

export const patchTenantBody = z.object({ name: z.optional(name), data: z.optional(data) });
export type TenantPatch = z.infer<typeof patchTenantBody>;

/** The older API's PATCH (/v1/tenants) may also give the tenant a new identifier. */
export const patchTenantV1Body = z.object({
  identifier: z.optional(externalIdSchema('identifier')),
  name: z.optional(name),
  data: z.optional(data),
});
export type TenantChange = z.infer<typeof patchTenantV1Body>;

/** Path identifiers are only bounded: one a tenant cannot have is simply not found. */
export const tenantParams = z.object({ identifier: z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)) });

export const listTenantsQuery = z.object(cursorQueryFields);
export type ListTenantsQuery = z.infer<typeof listTenantsQuery>;

/** The older API's numbered pages: `page` from 0, `limit` 1..100 (the reference's bounds). */
export const listTenantsV1Query = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
});
export type ListTenantsV1Query = z.infer<typeof listTenantsV1Query>;

// ---- responses -------------------------------------------------------------------------------

export const tenantSchema = z
  .object({
    _id: z.string(),
    identifier: z.string(),
    name: z.string(),
    data: z.record(z.string(), z.unknown()),
    _environmentId: z.string(),
    _organizationId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Tenant' });
export type Tenant = z.infer<typeof tenantSchema>;

export const tenantListSchema = z
  .object({ data: z.array(tenantSchema), next: z.nullable(z.string()), previous: z.nullable(z.string()) })
  .register(z.globalRegistry, { id: 'TenantList' });
export type TenantList = z.infer<typeof tenantListSchema>;

/** The reference's v1 page: `hasMore` says whether another page follows. */
export const tenantPageV1Schema = z
  .object({ data: z.array(tenantSchema), page: z.number(), pageSize: z.number(), hasMore: z.boolean() })
  .register(z.globalRegistry, { id: 'TenantPageV1' });
export type TenantPageV1 = z.infer<typeof tenantPageV1Schema>;
