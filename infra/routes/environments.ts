import { apiKeyListSchema, apiKeyParams, regeneratedApiKeyListSchema } from '#lib/tenancy/api-key-schemas.ts';
import { currentEnvironmentSchema, environmentListSchema } from '#lib/tenancy/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Environments and the API keys of the caller's environment, at the reference's v1 paths (what
// `@novu/api` `environments.list` and `@novu/node` 2.x `environments.*` call; answered in the
// reference's `{data}` envelope). Part of the route table (infra/routes.ts); the handlers in
// functions/environments/ take their entry from here, so their bundles hold only this area's schemas.

export const environmentRoutes = [
  {
    operationId: 'listEnvironments',
    method: 'GET',
    path: '/v1/environments',
    handler: 'functions/environments/list.ts',
    summary: "The organization's environments, with their application identifiers (API keys, masked, of the caller's environment only)",
    tag: 'Environments',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: environmentListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
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
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/v1/environments/api-keys',
    handler: 'functions/environments/api-keys-list.ts',
    summary: "The working API keys of the caller's environment, masked, with their hashes",
    tag: 'Environments',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: apiKeyListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'regenerateApiKey',
    method: 'POST',
    path: '/v1/environments/api-keys/regenerate',
    handler: 'functions/environments/api-keys-regenerate.ts',
    summary: "A new API key for the caller's environment, shown once; the keys it replaces keep working for the stage's grace period",
    tag: 'Environments',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: {},
    response: regeneratedApiKeyListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/v1/environments/api-keys/{hash}',
    handler: 'functions/environments/api-keys-revoke.ts',
    summary: "Revoke one of the caller's environment's API keys at once (the key in use too); answers the keys left",
    tag: 'Environments',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { params: apiKeyParams },
    response: apiKeyListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(environmentRoutes);
