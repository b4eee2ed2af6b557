import { z } from 'zod';
import {
  createIntegrationBody,
  integrationIdParams,
  integrationSchema,
  updateIntegrationBody,
} from '#lib/integrations/schemas.ts';
import type { RouteDef } from '#lib/http/route.ts';

export type { RouteDef, HttpMethod } from '#lib/http/route.ts';

// The one route table. The CDK stack makes one Lambda and one API Gateway route per entry, the
// local runtime serves the same entries, the HTTP layer validates requests with their schemas,
// and GET /openapi.json is generated from them.

const KB = 1024;
const DEFAULT_BODY_LIMIT = 512 * KB;

export const routes = [
  {
    operationId: 'listIntegrations',
    method: 'GET',
    path: '/v1/integrations',
    handler: 'functions/integrations/list.ts',
    summary: 'List the integrations of every environment of the organization',
    tag: 'Integrations',
    auth: true,
    successStatus: 200,
    request: {},
    response: z.array(integrationSchema),
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'createIntegration',
    method: 'POST',
    path: '/v1/integrations',
    handler: 'functions/integrations/create.ts',
    summary: 'Create an integration',
    tag: 'Integrations',
    auth: true,
    successStatus: 201,
    request: { body: createIntegrationBody },
    response: integrationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateIntegration',
    method: 'PUT',
    path: '/v1/integrations/{integrationId}',
    handler: 'functions/integrations/update.ts',
    summary: 'Update an integration',
    tag: 'Integrations',
    auth: true,
    successStatus: 200,
    request: { params: integrationIdParams, body: updateIntegrationBody },
    response: integrationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteIntegration',
    method: 'DELETE',
    path: '/v1/integrations/{integrationId}',
    handler: 'functions/integrations/delete.ts',
    summary: 'Delete an integration (soft delete); returns the remaining integrations',
    tag: 'Integrations',
    auth: true,
    successStatus: 200,
    request: { params: integrationIdParams },
    response: z.array(integrationSchema),
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'setPrimaryIntegration',
    method: 'POST',
    path: '/v1/integrations/{integrationId}/set-primary',
    handler: 'functions/integrations/set-primary.ts',
    summary: 'Make an email or sms integration the primary one of its environment and channel',
    tag: 'Integrations',
    auth: true,
    successStatus: 201,
    request: { params: integrationIdParams },
    response: integrationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  // ---- subscribers ----
  // ---- topics ----
  // ---- preferences ----
  // ---- workflows ----
  {
    operationId: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/openapi/get.ts',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: 'Meta',
    auth: false,
    successStatus: 200,
    request: {},
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export type OperationId = (typeof routes)[number]['operationId'];

export type RouteOf<Id extends OperationId> = Extract<(typeof routes)[number], { operationId: Id }>;

/** A route by its operation id, with its own schema types, for its handler to serve. */
export function route<Id extends OperationId>(operationId: Id): RouteOf<Id> {
  const found = routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`No route ${operationId}`);
  return found as RouteOf<Id>;
}
