import { route } from '#infra/routes/channel-connections.ts';
import { removeConnection } from '#lib/channels/connections.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('deleteChannelConnection'), ({ caller, params }) => removeConnection(caller, params.identifier));
