import {
  connectionListSchema,
  connectionSchema,
  createConnectionBody,
  identifierParams,
  listConnectionsQuery,
  updateConnectionBody,
} from '#lib/channels/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Channel connections (/v1/channel-connections): a workspace's token for a chat integration
// (docs/chat.md). Part of the route table (infra/routes.ts); handlers in functions/channel-connections/.

export const channelConnectionRoutes = inRateLimitCategory('configuration', [
  {
    operationId: 'createChannelConnection',
    method: 'POST',
    path: '/v1/channel-connections',
    handler: 'functions/channel-connections/create-channel-connection.ts',
    summary: 'Store a workspace connection (token) of a chat integration',
    tag: 'Channel Connections',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: createConnectionBody },
    response: connectionSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'listChannelConnections',
    method: 'GET',
    path: '/v1/channel-connections',
    handler: 'functions/channel-connections/list-channel-connections.ts',
    summary: 'List the channel connections of the environment (cursor pages, creation order)',
    tag: 'Channel Connections',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: listConnectionsQuery },
    response: connectionListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getChannelConnection',
    method: 'GET',
    path: '/v1/channel-connections/{identifier}',
    handler: 'functions/channel-connections/get-channel-connection.ts',
    summary: 'Get a channel connection (tokens masked)',
    tag: 'Channel Connections',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: identifierParams },
    response: connectionSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateChannelConnection',
    method: 'PATCH',
    path: '/v1/channel-connections/{identifier}',
    handler: 'functions/channel-connections/update-channel-connection.ts',
    summary: 'Replace the workspace and tokens of a channel connection',
    tag: 'Channel Connections',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: identifierParams, body: updateConnectionBody },
    response: connectionSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'deleteChannelConnection',
    method: 'DELETE',
    path: '/v1/channel-connections/{identifier}',
    handler: 'functions/channel-connections/delete-channel-connection.ts',
    summary: 'Delete a channel connection',
    tag: 'Channel Connections',
    auth: 'apiKey',
    successStatus: 204,
    request: { params: identifierParams },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(channelConnectionRoutes);
