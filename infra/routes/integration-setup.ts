import { integrationIdParams } from '#lib/integrations/schemas.ts';
import {
  autoConfigureResponse,
  configureWebhookResponse,
  integrationIdentifierParams,
  mobileLinkBody,
  mobileLinkResponse,
  telegramUpdateBody,
  telegramUpdateParams,
  telegramUpdateResponse,
} from '#lib/integration-setup/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// Setting an integration up at its provider (docs/chat.md, docs/receipts.md): a provider's event
// webhook pointed at our receipts (auto-configure), a Telegram bot's webhook pointed at our
// updates route and its deep links for subscribers. Part of the route table (infra/routes.ts);
// handlers in functions/integration-setup/.

export const integrationSetupRoutes = [
  ...inRateLimitCategory('configuration', [
    {
      operationId: 'autoConfigureIntegration',
      method: 'POST',
      path: '/v1/integrations/{integrationId}/auto-configure',
      handler: 'functions/integration-setup/auto-configure-integration.ts',
      summary: "Point the provider's delivery-event webhook at this integration's receipts, where the provider's API allows it",
      tag: 'Integrations',
      auth: 'apiKey',
      successStatus: 200,
      request: { params: integrationIdParams },
      response: autoConfigureResponse,
      maxBodyBytes: DEFAULT_BODY_LIMIT,
    },
    {
      operationId: 'configureIntegrationWebhook',
      method: 'POST',
      path: '/v1/integrations/{integrationIdentifier}/webhook/configure',
      handler: 'functions/integration-setup/configure-integration-webhook.ts',
      summary: "Register this service's updates URL with a Telegram integration's bot",
      tag: 'Integrations',
      auth: 'apiKey',
      successStatus: 200,
      request: { params: integrationIdentifierParams },
      response: configureWebhookResponse,
      maxBodyBytes: DEFAULT_BODY_LIMIT,
    },
    {
      operationId: 'createIntegrationMobileLink',
      method: 'POST',
      path: '/v1/integrations/{integrationIdentifier}/mobile-link',
      handler: 'functions/integration-setup/create-integration-mobile-link.ts',
      summary: "A Telegram bot's single-use deep link that connects a subscriber's chat (valid 15 minutes)",
      tag: 'Integrations',
      auth: 'apiKey',
      successStatus: 200,
      request: { params: integrationIdentifierParams, body: mobileLinkBody },
      response: mobileLinkResponse,
      maxBodyBytes: DEFAULT_BODY_LIMIT,
    },
  ]),
  {
    operationId: 'receiveTelegramUpdate',
    method: 'POST',
    path: '/webhooks/telegram/{environmentId}/{integrationId}',
    handler: 'functions/integration-setup/receive-telegram-update.ts',
    summary: "Receive a Telegram bot's updates (Telegram's secret token; no API key)",
    tag: 'Provider receipts',
    auth: 'none',
    successStatus: 200,
    request: { params: telegramUpdateParams, body: telegramUpdateBody },
    response: telegramUpdateResponse,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(integrationSetupRoutes);
