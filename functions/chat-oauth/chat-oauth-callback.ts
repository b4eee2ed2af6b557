import { route } from '#infra/routes/chat-oauth.ts';
import { completeOAuth } from '#lib/channels/oauth.ts';
import { httpHandler, withHeaders } from '#lib/http/handler.ts';

export const handler = httpHandler(route('chatOAuthCallback'), async ({ query, headers }) =>
  withHeaders(undefined, { location: await completeOAuth(query, headers) }),
);
