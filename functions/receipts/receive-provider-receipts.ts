import { route } from '#infra/routes/receipts.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { receiveReceipts } from '#lib/receipts/receive.ts';

export const handler = publicHttpHandler(route('receiveProviderReceipts'), ({ params, headers, rawBody, url }) =>
  receiveReceipts(
    { organizationId: params.organizationId, environmentId: params.environmentId },
    { channel: params.channel, providerIdOrIntegrationId: params.providerIdOrIntegrationId, rawBody, headers, url },
  ),
);
