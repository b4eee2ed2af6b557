import { route } from '#infra/routes/channel-connections.ts';
import { getConnectionView } from '#lib/channels/connections.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('getChannelConnection'), ({ caller, params }) => getConnectionView(caller, params.identifier));
