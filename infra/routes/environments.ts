import { currentEnvironmentSchema } from '#lib/tenancy/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The caller's environment (/v1/environments/me, what `@novu/node` 2.x calls; answered in the
// reference's `{data}` envelope). Part of the route table (infra/routes.ts); the handlers in
// functions/environments/ take their entry from here, so their bundles hold only this area's schemas.

export const environmentRoutes = [
  {
    operationId: 'getCurrentEnvironment',
    method: 'GET',
    path: '/v1/environments/me',
    handler: 'functions/environments/me.ts',
    summary: "The API key's environment (its API keys are never shown)",
    tag: 'Environments',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: currentEnvironmentSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(environmentRoutes);
