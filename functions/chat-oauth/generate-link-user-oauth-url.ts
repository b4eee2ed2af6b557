import { route } from '#infra/routes/chat-oauth.ts';
import { generateLinkUserUrl } from '#lib/channels/oauth.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('generateLinkUserOAuthUrl'), ({ caller, body, headers }) =>
  generateLinkUserUrl(caller, body, headers),
);
