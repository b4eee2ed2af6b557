import { route } from '#infra/routes/channel-endpoints.ts';
import { updateEndpoint } from '#lib/channels/endpoints.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('updateChannelEndpoint'), ({ caller, params, body }) =>
  updateEndpoint(caller, params.identifier, body),
);
