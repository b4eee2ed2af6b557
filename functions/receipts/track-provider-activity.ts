import { route } from '#infra/routes/receipts.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { receiveDeliveryEvents } from '#lib/receipts/delivery-provider.ts';

export const handler = httpHandler(route('trackProviderActivity'), ({ params, headers, rawBody, url }) =>
  receiveDeliveryEvents(params.environmentId, params.integrationId, { rawBody, headers, url }),
);
