import { route } from '#infra/routes/channel-connections.ts';
import { updateConnection } from '#lib/channels/connections.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('updateChannelConnection'), ({ caller, params, body }) =>
  updateConnection(caller, params.identifier, body),
);
