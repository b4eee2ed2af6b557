import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { bridgeRoutes } from './routes/bridge.ts';
import { contextRoutes } from './routes/contexts.ts';
import { channelConnectionRoutes } from './routes/channel-connections.ts';
import { channelEndpointRoutes } from './routes/channel-endpoints.ts';
import { chatOAuthRoutes } from './routes/chat-oauth.ts';
import { engagementRoutes } from './routes/engagement.ts';
import { environmentRoutes } from './routes/environments.ts';
import { environmentVariableRoutes } from './routes/environment-variables.ts';
import { eventRoutes } from './routes/events.ts';
import { executionDetailRoutes } from './routes/execution-details.ts';
import { inboxPreferenceRoutes } from './routes/inbox-preferences.ts';
import { inboxRoutes } from './routes/inbox.ts';
import { integrationRoutes } from './routes/integrations.ts';
import { layoutRoutes } from './routes/layouts.ts';
import { messageRoutes } from './routes/messages.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { receiptRoutes } from './routes/receipts.ts';
import { subscriberNotificationRoutes } from './routes/subscriber-notifications.ts';
import { subscriberRoutes } from './routes/subscribers.ts';
import { tenantRoutes } from './routes/tenants.ts';
import { topicRoutes } from './routes/topics.ts';
import { translationRoutes } from './routes/translations.ts';
import { workflowRoutes } from './routes/workflows.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { workflowV1Routes } from './routes/workflows-v1.ts';
import { widgetRoutes } from './routes/widgets.ts';

export type { RouteDef, HttpMethod } from '#lib/http/route.ts';

// The one route table. The CDK stack makes one Lambda and one API Gateway route per entry, the
// local runtime serves the same entries, the HTTP layer validates requests with their schemas,
// and GET /openapi.json is generated from them.
//
// It is written in parts, one per folder of functions/ (infra/routes/<folder>.ts): a handler
// takes its own entry from its part (`import { route } from '#infra/routes/<folder>.ts'`), never
// from here, because this module imports every area's schemas and a Lambda bundle holds
// everything its entry imports (see docs/performance.md).

// The parts by name, in the table's order: the name is the part's file (infra/routes/<name>.ts).
// The CDK stack puts each part's functions and API routes in a nested stack of its own
// (infra/constructs/http-routes.ts), so no stack nears CloudFormation's 500 resources.
export const routeParts = {
  integrations: integrationRoutes,
  subscribers: subscriberRoutes,
  'subscriber-notifications': subscriberNotificationRoutes,
  topics: topicRoutes,
  workflows: workflowRoutes,
  'workflows-v1': workflowV1Routes,
  layouts: layoutRoutes,
  tenants: tenantRoutes,
  contexts: contextRoutes,
  events: eventRoutes,
  messages: messageRoutes,
  notifications: notificationRoutes,
  'execution-details': executionDetailRoutes,
  environments: environmentRoutes,
  'environment-variables': environmentVariableRoutes,
  organizations: organizationRoutes,
  translations: translationRoutes,
  inbox: inboxRoutes,
  'inbox-preferences': inboxPreferenceRoutes,
  widgets: widgetRoutes,
  webhooks: webhookRoutes,
  receipts: receiptRoutes,
  'channel-connections': channelConnectionRoutes,
  'channel-endpoints': channelEndpointRoutes,
  'chat-oauth': chatOAuthRoutes,
  openapi: openApiRoutes,
  bridge: bridgeRoutes,
  engagement: engagementRoutes,
} as const satisfies Record<string, readonly RouteDef[]>;

export type RoutePart = keyof typeof routeParts;

/** The whole table: every part's routes, in the order above. */
export const routes: readonly (typeof routeParts)[RoutePart][number][] = Object.values(routeParts).flat();

export type OperationId = (typeof routes)[number]['operationId'];

/** A route by its operation id, with its own schema types. */
export const route = routeLookup(routes);
