import {
  createVariableBody,
  listVariablesQuery,
  updateVariableBody,
  variableListSchema,
  variableParams,
  variableSchema,
  variableUsageSchema,
} from '#lib/environment-variables/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Environment variables: /v1/environment-variables, the reference's routes and shapes (answered in
// its `{data}` envelope, which `@novu/api` unwraps). Part of the route table (infra/routes.ts);
// the handlers in functions/environment-variables/ take their entry from here.

const route_ = {
  tag: 'Environment Variables',
  auth: 'apiKey',
  envelope: 'data',
  maxBodyBytes: DEFAULT_BODY_LIMIT,
} as const;

export const environmentVariableRoutes = inRateLimitCategory('configuration', [
  {
    ...route_,
    operationId: 'createEnvironmentVariable',
    method: 'POST',
    path: '/v1/environment-variables',
    handler: 'functions/environment-variables/create-environment-variable.ts',
    summary: "A variable of the organization, with the caller's environment's value (encrypted at rest; a secret's is never shown)",
    successStatus: 200,
    request: { body: createVariableBody },
    response: variableSchema,
  },
  {
    ...route_,
    operationId: 'listEnvironmentVariables',
    method: 'GET',
    path: '/v1/environment-variables',
    handler: 'functions/environment-variables/list-environment-variables.ts',
    summary: "The organization's variables, newest first, each with the caller's environment's value (a secret's masked)",
    successStatus: 200,
    request: { query: listVariablesQuery },
    response: variableListSchema,
  },
  {
    ...route_,
    operationId: 'getEnvironmentVariableUsage',
    method: 'GET',
    path: '/v1/environment-variables/{variableKey}/usage',
    handler: 'functions/environment-variables/get-environment-variable-usage.ts',
    summary: "The caller's environment's workflows whose steps name the variable ({{env.KEY}})",
    successStatus: 200,
    request: { params: variableParams },
    response: variableUsageSchema,
  },
  {
    ...route_,
    operationId: 'getEnvironmentVariable',
    method: 'GET',
    path: '/v1/environment-variables/{variableKey}',
    handler: 'functions/environment-variables/get-environment-variable.ts',
    summary: "A variable by key, with the caller's environment's value (a secret's masked)",
    successStatus: 200,
    request: { params: variableParams },
    response: variableSchema,
  },
  {
    ...route_,
    operationId: 'updateEnvironmentVariable',
    method: 'PATCH',
    path: '/v1/environment-variables/{variableKey}',
    handler: 'functions/environment-variables/update-environment-variable.ts',
    summary: "Change a variable's key, type or secrecy, or the caller's environment's value (the other environments' stay)",
    successStatus: 200,
    request: { params: variableParams, body: updateVariableBody },
    response: variableSchema,
  },
  {
    ...route_,
    operationId: 'deleteEnvironmentVariable',
    method: 'DELETE',
    path: '/v1/environment-variables/{variableKey}',
    handler: 'functions/environment-variables/delete-environment-variable.ts',
    summary: "Remove the caller's environment's value of a variable; the variable goes with its last value",
    successStatus: 204,
    request: { params: variableParams },
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(environmentVariableRoutes);
