import { deliveryEventsResponse, deliveryProviderParams, receiptParams, receiptResponse } from '#lib/receipts/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { RECEIPT_BODY_LIMIT } from './body-limits.ts';

// Delivery receipts from email and sms providers (the reference's inbound webhook routes). No
// API key: the vendor's signature on the raw body is the credential (lib/receipts/vendors).
// Part of the route table (infra/routes.ts).

export const receiptRoutes = [
  {
    operationId: 'receiveProviderReceipts',
    method: 'POST',
    path: '/webhooks/organizations/{organizationId}/environments/{environmentId}/{channel}/{providerIdOrIntegrationId}',
    handler: 'functions/receipts/receive-provider-receipts.ts',
    summary: "Receive an email or sms provider's delivery receipts (signed by the vendor; no API key)",
    tag: 'Provider receipts',
    auth: 'none',
    bodyFormat: 'raw',
    successStatus: 200,
    request: { params: receiptParams },
    response: receiptResponse,
    maxBodyBytes: RECEIPT_BODY_LIMIT,
  },
  {
    // The SDK's path for the same receipts (`activity.track`): the integration names its channel.
    operationId: 'trackProviderActivity',
    method: 'POST',
    path: '/v2/inbound-webhooks/delivery-providers/{environmentId}/{integrationId}',
    handler: 'functions/receipts/track-provider-activity.ts',
    summary: "Receive an email or sms provider's delivery events (signed by the vendor; no API key)",
    tag: 'Provider receipts',
    auth: 'none',
    bodyFormat: 'raw',
    successStatus: 200,
    request: { params: deliveryProviderParams },
    response: deliveryEventsResponse,
    maxBodyBytes: RECEIPT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(receiptRoutes);
