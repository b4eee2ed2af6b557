import { route } from '#infra/routes/channel-endpoints.ts';
import { listEndpoints } from '#lib/channels/endpoints.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('listChannelEndpoints'), ({ caller, query }) => listEndpoints(caller, query));
