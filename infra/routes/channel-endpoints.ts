import {
  endpointListSchema,
  endpointSchema,
  createEndpointBody,
  identifierParams,
  listEndpointsQuery,
  updateEndpointBody,
} from '#lib/channels/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Channel endpoints (/v1/channel-endpoints): where a chat step to a subscriber posts, a Slack or
// Teams channel or user through a channel connection, or a webhook (docs/chat.md). Part of the
// route table (infra/routes.ts); handlers in functions/channel-endpoints/.

export const channelEndpointRoutes = inRateLimitCategory('configuration', [
  {
    operationId: 'createChannelEndpoint',
    method: 'POST',
    path: '/v1/channel-endpoints',
    handler: 'functions/channel-endpoints/create-channel-endpoint.ts',
    summary: 'Create a channel endpoint of a subscriber',
    tag: 'Channel Endpoints',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: createEndpointBody },
    response: endpointSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'listChannelEndpoints',
    method: 'GET',
    path: '/v1/channel-endpoints',
    handler: 'functions/channel-endpoints/list-channel-endpoints.ts',
    summary: 'List the channel endpoints of the environment (cursor pages, creation order)',
    tag: 'Channel Endpoints',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: listEndpointsQuery },
    response: endpointListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getChannelEndpoint',
    method: 'GET',
    path: '/v1/channel-endpoints/{identifier}',
    handler: 'functions/channel-endpoints/get-channel-endpoint.ts',
    summary: 'Get a channel endpoint',
    tag: 'Channel Endpoints',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: identifierParams },
    response: endpointSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateChannelEndpoint',
    method: 'PATCH',
    path: '/v1/channel-endpoints/{identifier}',
    handler: 'functions/channel-endpoints/update-channel-endpoint.ts',
    summary: 'Replace the endpoint data of a channel endpoint (of the same type)',
    tag: 'Channel Endpoints',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: identifierParams, body: updateEndpointBody },
    response: endpointSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteChannelEndpoint',
    method: 'DELETE',
    path: '/v1/channel-endpoints/{identifier}',
    handler: 'functions/channel-endpoints/delete-channel-endpoint.ts',
    summary: 'Delete a channel endpoint',
    tag: 'Channel Endpoints',
    auth: 'apiKey',
    successStatus: 204,
    request: { params: identifierParams },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(channelEndpointRoutes);
