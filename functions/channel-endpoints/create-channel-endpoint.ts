import { route } from '#infra/routes/channel-endpoints.ts';
import { createEndpoint } from '#lib/channels/endpoints.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('createChannelEndpoint'), ({ caller, body }) => createEndpoint(caller, body));
