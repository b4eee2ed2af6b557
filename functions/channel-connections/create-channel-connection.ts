import { route } from '#infra/routes/channel-connections.ts';
import { createConnection } from '#lib/channels/connections.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('createChannelConnection'), ({ caller, body }) => createConnection(caller, body));
