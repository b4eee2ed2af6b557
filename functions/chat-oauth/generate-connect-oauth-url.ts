import { route } from '#infra/routes/chat-oauth.ts';
import { generateOAuthUrl } from '#lib/channels/oauth.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

// Unlike generateChatOAuthUrl, this one links the subscriber who connects by default (the SDK's model).
export const handler = idempotentHttpHandler(route('generateConnectOAuthUrl'), ({ caller, body, headers }) =>
  generateOAuthUrl(caller, body, headers, { autoLinkUser: true }),
);
