import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// This API's own description (/openapi.json). Part of the route table (infra/routes.ts); the handlers in
// functions/openapi/ take their entry from here, so their bundles hold only this area's schemas.

export const openApiRoutes = [
  {
    operationId: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/openapi/get-open-api.ts',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: 'Meta',
    auth: 'none',
    successStatus: 200,
    request: {},
    maxBodyBytes: DEFAULT_BODY_LIMIT,
    access: 'none',
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(openApiRoutes);
