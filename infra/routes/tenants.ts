import {
  createTenantBody,
  listTenantsQuery,
  patchTenantBody,
  tenantListSchema,
  tenantParams,
  tenantSchema,
} from '#lib/tenants/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Tenants (/v2/tenants). Part of the route table (infra/routes.ts); the handlers in
// functions/tenants/ take their entry from here, so their bundles hold only this area's schemas.

export const tenantRoutes = [
  {
    operationId: 'createTenant',
    method: 'POST',
    path: '/v2/tenants',
    handler: 'functions/tenants/create.ts',
    summary: 'Create a tenant',
    tag: 'Tenants',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: createTenantBody },
    response: tenantSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'listTenants',
    method: 'GET',
    path: '/v2/tenants',
    handler: 'functions/tenants/list.ts',
    summary: 'List the tenants of the environment (cursor pages, creation order)',
    tag: 'Tenants',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: listTenantsQuery },
    response: tenantListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getTenant',
    method: 'GET',
    path: '/v2/tenants/{identifier}',
    handler: 'functions/tenants/get.ts',
    summary: 'Get a tenant by identifier',
    tag: 'Tenants',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: tenantParams },
    response: tenantSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'patchTenant',
    method: 'PATCH',
    path: '/v2/tenants/{identifier}',
    handler: 'functions/tenants/update.ts',
    summary: 'Update the sent fields of a tenant (data replaced whole)',
    tag: 'Tenants',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: tenantParams, body: patchTenantBody },
    response: tenantSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteTenant',
    method: 'DELETE',
    path: '/v2/tenants/{identifier}',
    handler: 'functions/tenants/delete.ts',
    summary: 'Delete a tenant',
    tag: 'Tenants',
    auth: 'apiKey',
    successStatus: 204,
    request: { params: tenantParams },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(tenantRoutes);
