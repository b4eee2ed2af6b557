import { route } from '#infra/routes/channel-endpoints.ts';
import { getEndpointView } from '#lib/channels/endpoints.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('getChannelEndpoint'), ({ caller, params }) => getEndpointView(caller, params.identifier));
