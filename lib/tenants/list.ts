import { cursorList, cursorOfShape, toPageRequest } from '../http/cursor-list.ts';
import type { EnvScope } from '../scope.ts';
import { tenantsPage } from './repository.ts';
import type { ListTenantsQuery, TenantList } from './schemas.ts';

/** `<createdAt>#<_id>` as tenantListIndex builds it; anything else is a 422, not an empty page. */
const LIST_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[0-9a-f]{24}$/;

/** The environment's tenants in creation order, newest first unless `orderDirection=ASC`. */
export async function listTenants(scope: EnvScope, query: ListTenantsQuery): Promise<TenantList> {
  const page = await tenantsPage(scope, toPageRequest(query, cursorOfShape(LIST_KEY)));
  return cursorList(page);
}
