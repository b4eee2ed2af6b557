import { route } from '#infra/routes/channel-connections.ts';
import { listConnections } from '#lib/channels/connections.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('listChannelConnections'), ({ caller, query }) => listConnections(caller, query));
