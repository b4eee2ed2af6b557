import { route } from '#infra/routes/channel-endpoints.ts';
import { removeEndpoint } from '#lib/channels/endpoints.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('deleteChannelEndpoint'), ({ caller, params }) => removeEndpoint(caller, params.identifier));
