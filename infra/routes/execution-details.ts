import { executionDetailListV1Schema, executionDetailsQuery } from '#lib/activity/execution-details-schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The execution details of one notification (/v1/execution-details, what `@novu/node` 2.x calls;
// answered in the reference's `{data}` envelope). Part of the route table (infra/routes.ts); the
// handlers in functions/execution-details/ take their entry from here, so their bundles hold only
// this area's schemas.

export const executionDetailRoutes = [
  {
    operationId: 'getExecutionDetails',
    method: 'GET',
    path: '/v1/execution-details',
    handler: 'functions/execution-details/get-execution-details.ts',
    summary: "The execution details of a subscriber's notification, oldest first",
    tag: 'Execution Details',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { query: executionDetailsQuery },
    response: executionDetailListV1Schema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(executionDetailRoutes);
