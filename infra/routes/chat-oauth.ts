import {
  generateOAuthUrlBody,
  linkEndpointBody,
  linkEndpointSchema,
  linkUserBody,
  oauthCallbackQuery,
  oauthUrlSchema,
} from '#lib/channels/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The OAuth flows of chat integrations (docs/chat.md): the consent and sign-in URL generators and
// the callback the provider sends the browser to. Part of the route table (infra/routes.ts);
// handlers in functions/chat-oauth/.

export const chatOAuthRoutes = inRateLimitCategory('configuration', [
  {
    operationId: 'generateChatOAuthUrl',
    method: 'POST',
    path: '/v1/integrations/chat/oauth',
    handler: 'functions/chat-oauth/generate-chat-oauth-url.ts',
    summary: 'The consent URL that connects a workspace to a chat integration (valid 5 minutes)',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: generateOAuthUrlBody },
    response: oauthUrlSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'generateConnectOAuthUrl',
    method: 'POST',
    path: '/v1/integrations/channel-connections/oauth',
    handler: 'functions/chat-oauth/generate-connect-oauth-url.ts',
    summary: 'The consent URL that creates a channel connection (valid 5 minutes)',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: generateOAuthUrlBody },
    response: oauthUrlSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'generateLinkUserOAuthUrl',
    method: 'POST',
    path: '/v1/integrations/channel-endpoints/oauth',
    handler: 'functions/chat-oauth/generate-link-user-oauth-url.ts',
    summary: 'The sign-in URL that links a subscriber’s own Slack or Teams user as their endpoint (valid 5 minutes)',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: linkUserBody },
    response: oauthUrlSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'linkChannelEndpoint',
    method: 'POST',
    path: '/v1/integrations/channel-endpoints/link',
    handler: 'functions/chat-oauth/link-channel-endpoint.ts',
    summary: 'The URL a subscriber opens to link their chat identity (a Slack or Teams sign-in, valid 5 minutes)',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 200,
    request: { body: linkEndpointBody },
    response: linkEndpointSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'chatOAuthCallback',
    method: 'GET',
    path: '/v1/integrations/chat/oauth/callback',
    handler: 'functions/chat-oauth/chat-oauth-callback.ts',
    summary: 'Where the chat provider sends the browser back: stores the connection or links the user, then goes to the Redirect URL',
    tag: 'Integrations',
    auth: 'none',
    successStatus: 302,
    request: { query: oauthCallbackQuery },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(chatOAuthRoutes);
