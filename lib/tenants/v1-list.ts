import type { EnvScope } from '../scope.ts';
import { tenantsByPage } from './repository.ts';
import type { ListTenantsV1Query, TenantPageV1 } from './schemas.ts';

/** The older API's list (/v1/tenants): numbered pages, newest first; `hasMore` is exact. */
export async function listTenantsV1(scope: EnvScope, query: ListTenantsV1Query): Promise<TenantPageV1> {
  const { tenants, hasMore } = await tenantsByPage(scope, query.page, query.limit);
  return { data: tenants, page: query.page, pageSize: query.limit, hasMore };
}
