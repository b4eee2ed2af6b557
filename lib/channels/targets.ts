import { contextKeyOf } from '../context-keys.ts';
import { getIntegration, type StoredIntegration } from '../integrations/repository.ts';
import { isSlackProvider } from '../providers/chat/slack-target.ts';
import type { ConnectionDestination } from '../providers/provider.ts';
import type { EnvScope } from '../scope.ts';
import { getConnection } from './connection-repository.ts';
import { endpointsOfSubscriber, type StoredEndpoint } from './endpoint-repository.ts';

// Where a chat step posts beyond the subscriber's channel credentials: each of its channel
// endpoints of the trigger's context. As in the reference, contexts match as exact sets: a
// trigger with context A reaches the endpoints created with exactly A, a trigger without context
// only the endpoints without one; a connection is used only for the same context too. A Slack or
// Teams channel or user goes through its connection (the workspace's token; the tenant); a
// webhook endpoint to its URL, with its `channel` for the providers that name one. An endpoint
// whose integration is inactive or gone, or whose connection is gone, revoked or of another
// context, is skipped with the reason (the step records it like a missing webhook URL).

export interface EndpointTarget {
  integration: StoredIntegration;
  /** The provider's channel or user id, or the webhook URL. */
  to: string;
  /** A webhook endpoint's channel (Mattermost, Rocket.Chat, chat webhook read it). */
  channel?: string;
  endpoint: StoredEndpoint;
  connection?: ConnectionDestination;
}

export interface SkippedEndpoint {
  integration?: StoredIntegration;
  endpoint: StoredEndpoint;
  reason: string;
}

export async function endpointTargets(
  scope: EnvScope,
  subscriberId: string,
  contextKeys: readonly string[],
): Promise<{ targets: EndpointTarget[]; skipped: SkippedEndpoint[]; configured: boolean }> {
  const context = contextKeyOf(contextKeys);
  const ofContext = (keys: readonly string[]) => contextKeyOf(keys) === context;
  const endpoints = (await endpointsOfSubscriber(scope, subscriberId)).filter((e) => ofContext(e.contextKeys));
  const targets: EndpointTarget[] = [];
  const skipped: SkippedEndpoint[] = [];
  for (const endpoint of endpoints) {
    const found = await getIntegration(scope.organizationId, endpoint._integrationId);
    const integration = found && !found.deleted && found.active && found._environmentId === scope.environmentId ? found : undefined;
    if (!integration) {
      skipped.push({ endpoint, reason: `Integration ${endpoint.integrationIdentifier} is not active` });
      continue;
    }
    const data = endpoint.endpoint;
    if ('url' in data) {
      // A Slack incoming webhook posts where it was created for, and a `channel` beside it would
      // switch the send to the integration's bot token: a webhook endpoint goes to its URL, as the
      // reference's Slack provider sends a webhook endpoint.
      const channel = !isSlackProvider(integration.providerId) && data.channel;
      targets.push({ integration, to: data.url, endpoint, ...(channel && { channel }) });
      continue;
    }
    const connection = endpoint.connectionIdentifier ? await getConnection(scope, endpoint.connectionIdentifier) : undefined;
    if (!connection) skipped.push({ integration, endpoint, reason: `Channel connection ${endpoint.connectionIdentifier} was not found` });
    else if (!ofContext(connection.contextKeys))
      skipped.push({
        integration,
        endpoint,
        reason: `Channel connection ${connection.identifier} is not of the trigger's context (${context || 'none'})`,
      });
    else if (connection.status === 'revoked')
      skipped.push({
        integration,
        endpoint,
        reason: `Channel connection ${connection.identifier} was revoked (${connection.revokedReason})`,
      });
    else {
      const channel = 'channelId' in data;
      targets.push({
        integration,
        to: channel ? data.channelId : data.userId,
        endpoint,
        connection: {
          identifier: connection.identifier,
          accessToken: connection.auth.accessToken,
          workspaceId: connection.workspace.id,
          kind: channel ? 'channel' : 'user',
          ...(channel && data.teamId && { teamId: data.teamId }),
        },
      });
    }
  }
  return { targets, skipped, configured: endpoints.length > 0 };
}
