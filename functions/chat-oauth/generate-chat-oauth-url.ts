import { route } from '#infra/routes/chat-oauth.ts';
import { generateOAuthUrl } from '#lib/channels/oauth.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('generateChatOAuthUrl'), ({ caller, body, headers }) =>
  generateOAuthUrl(caller, body, headers),
);
