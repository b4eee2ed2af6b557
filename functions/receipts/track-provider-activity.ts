import { route } from '#infra/routes/receipts.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { receiveDeliveryEvents } from '#lib/receipts/delivery-provider.ts';

export const handler = publicHttpHandler(route('trackProviderActivity'), ({ params, headers, rawBody, url }) =>
  receiveDeliveryEvents(params.environmentId, params.integrationId, { rawBody, headers, url }),
);
