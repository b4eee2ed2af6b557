import { generateOAuthUrlBody, oauthCallbackQuery, oauthUrlSchema } from '#lib/channels/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The OAuth connect flow of chat integrations (docs/chat.md): the consent URL generators and the
// callback the provider sends the browser to. Part of the route table (infra/routes.ts);
// handlers in functions/chat-oauth/.

export const chatOAuthRoutes = inRateLimitCategory('configuration', [
  {
    operationId: 'generateChatOAuthUrl',
    method: 'POST',
    path: '/v1/integrations/chat/oauth',
    handler: 'functions/chat-oauth/generate-chat-url.ts',
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
    handler: 'functions/chat-oauth/generate-connect-url.ts',
    summary: 'The consent URL that creates a channel connection (valid 5 minutes)',
    tag: 'Integrations',
    auth: 'apiKey',
    successStatus: 201,
    request: { body: generateOAuthUrlBody },
    response: oauthUrlSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'chatOAuthCallback',
    method: 'GET',
    path: '/v1/integrations/chat/oauth/callback',
    handler: 'functions/chat-oauth/callback.ts',
    summary: 'Where the chat provider sends the browser back: stores the connection, then redirects to the integration’s Redirect URL',
    tag: 'Integrations',
    auth: 'none',
    successStatus: 302,
    request: { query: oauthCallbackQuery },
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(chatOAuthRoutes);
