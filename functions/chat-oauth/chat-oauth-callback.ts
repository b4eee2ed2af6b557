import { route } from '#infra/routes/chat-oauth.ts';
import { completeOAuth } from '#lib/channels/oauth.ts';
import { withHeaders } from '#lib/http/handler-chain.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';

export const handler = publicHttpHandler(route('chatOAuthCallback'), async ({ query, headers }) =>
  withHeaders(undefined, { location: await completeOAuth(query, headers) }),
);
