import { route } from '#infra/routes/chat-oauth.ts';
import { linkChannelEndpoint } from '#lib/channels/oauth.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('linkChannelEndpoint'), ({ caller, body, headers }) =>
  linkChannelEndpoint(caller, body, headers),
);
