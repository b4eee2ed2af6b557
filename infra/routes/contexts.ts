import {
  contextListSchema,
  contextParams,
  contextSchema,
  createContextBody,
  listContextsQuery,
  updateContextBody,
} from '#lib/contexts/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Contexts: the stored entities a trigger's `context` names (`{type: id}`), their data seen by
// templates and conditions as `context.<type>.data`. Part of the route table (infra/routes.ts).

export const contextRoutes = [
  {
    operationId: 'createContext',
    method: 'POST',
    path: '/v2/contexts',
    handler: 'functions/contexts/create-context.ts',
    summary: 'Create a context (409 when its type and id exist)',
    tag: 'Contexts',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: createContextBody },
    response: contextSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'listContexts',
    method: 'GET',
    path: '/v2/contexts',
    handler: 'functions/contexts/list-contexts.ts',
    summary: 'List the contexts of the environment (cursor pages, creation order)',
    tag: 'Contexts',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: listContextsQuery },
    response: contextListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getContext',
    method: 'GET',
    path: '/v2/contexts/{type}/{id}',
    handler: 'functions/contexts/get-context.ts',
    summary: 'Get a context by type and id',
    tag: 'Contexts',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: contextParams },
    response: contextSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateContext',
    method: 'PATCH',
    path: '/v2/contexts/{type}/{id}',
    handler: 'functions/contexts/update-context.ts',
    summary: "Replace a context's data",
    tag: 'Contexts',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: contextParams, body: updateContextBody },
    response: contextSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteContext',
    method: 'DELETE',
    path: '/v2/contexts/{type}/{id}',
    handler: 'functions/contexts/delete-context.ts',
    summary: 'Delete a context',
    tag: 'Contexts',
    auth: 'apiKey',
    successStatus: 204,
    request: { params: contextParams },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(contextRoutes);
