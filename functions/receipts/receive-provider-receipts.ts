import { route } from '#infra/routes/receipts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { receiveReceipts } from '#lib/receipts/receive.ts';

export const handler = httpHandler(route('receiveProviderReceipts'), ({ params, headers, rawBody, url }) =>
  receiveReceipts(
    { organizationId: params.organizationId, environmentId: params.environmentId },
    { channel: params.channel, providerIdOrIntegrationId: params.providerIdOrIntegrationId, rawBody, headers, url },
  ),
);
