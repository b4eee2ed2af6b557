import * as z from '#lib/zod.ts';
import { createIntegrationBody, integrationIdParams, integrationSchema, updateIntegrationBody } from '#lib/integrations/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Integrations of the organization (/v1/integrations). Part of the route table (infra/routes.ts); the handlers in
// functions/integrations/ take their entry from here, so their bundles hold only this area's schemas.
// Create, delete and set-primary answer in the reference's `{data}` envelope (what `@novu/node`
// apps read); the list and the update are the interface's endpoints and are not wrapped.

export const integrationRoutes = [
  {
    operationId: 'listIntegrations',
    method: 'GET',
    path: '/v1/integrations',
    handler: 'functions/integrations/list-integrations.ts',
    summary: 'List the integrations of every environment of the organization',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 200,
    request: {},
    response: z.array(integrationSchema),
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'listActiveIntegrations',
    method: 'GET',
    path: '/v1/integrations/active',
    handler: 'functions/integrations/list-active-integrations.ts',
    summary: 'List the active integrations of every environment of the organization',
    tag: 'Integrations',
    auth: 'apiKey',
    // A route of the older API that `@novu/node` 2.x calls, in the reference's envelope.
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: z.array(integrationSchema),
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'createIntegration',
    method: 'POST',
    path: '/v1/integrations',
    handler: 'functions/integrations/create-integration.ts',
    summary: 'Create an integration',
    tag: 'Integrations',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 201,
    request: { body: createIntegrationBody },
    response: integrationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateIntegration',
    method: 'PUT',
    path: '/v1/integrations/{integrationId}',
    handler: 'functions/integrations/update-integration.ts',
    summary: 'Update an integration',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: integrationIdParams, body: updateIntegrationBody },
    response: integrationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteIntegration',
    method: 'DELETE',
    path: '/v1/integrations/{integrationId}',
    handler: 'functions/integrations/delete-integration.ts',
    summary: 'Delete an integration (soft delete); returns the remaining integrations',
    tag: 'Integrations',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { params: integrationIdParams },
    response: z.array(integrationSchema),
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'setPrimaryIntegration',
    method: 'POST',
    path: '/v1/integrations/{integrationId}/set-primary',
    handler: 'functions/integrations/set-primary-integration.ts',
    summary: 'Make an email or sms integration the primary one of its environment and channel',
    tag: 'Integrations',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { params: integrationIdParams },
    response: integrationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(integrationRoutes);
