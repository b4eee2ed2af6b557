import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SubscriberSession } from '../auth/session-token.ts';
import { tableName } from '../config.ts';
import { contextKeyOf } from '../context-keys.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryAll } from '../store/query-pages.ts';
import { MAX_CONNECTION_SECONDS } from './gateway-limits.ts';
import type { SocketProtocol } from './socket-session.ts';

// Storage of a subscriber's open inbox sockets: one item per connection in the subscriber's
// partition (`CONN#<connectionId>`), so the sockets to push to are one Query of that partition,
// and deleting a subscriber's partition takes them along. An item outlives its socket by at most
// the TTL (API Gateway closes sockets after 2 hours) when $disconnect never came; a push that
// finds the socket gone deletes it sooner.

/** Beyond API Gateway's 2 hours: clock differences between the gateway and a function. */
const TTL_MARGIN_SECONDS = 60;

export interface LiveConnection {
  connectionId: string;
  /** The session's context keys, and their joined form (contextKeyOf) that messages are matched on. */
  contextKeys: string[];
  contextKey: string;
  connectedAt: string;
  /** How frames are written to it (lib/live/push.ts). */
  protocol: SocketProtocol;
}

/** Until when a socket opened at `at` can be open (epoch seconds). */
export const openUntil = (at: Date): number => Math.floor(at.getTime() / 1000) + MAX_CONNECTION_SECONDS + TTL_MARGIN_SECONDS;

export async function saveConnection(
  session: SubscriberSession,
  connectionId: string,
  now: Date,
  protocol: SocketProtocol = 'cloud',
): Promise<void> {
  const scope: EnvScope = session;
  const item = {
    ...keys.liveConnection(scope, session.subscriberId, connectionId),
    type: 'LiveConnection',
    connectionId,
    subscriberDbId: session.subscriberDbId,
    contextKeys: session.contextKeys,
    contextKey: contextKeyOf(session.contextKeys),
    connectedAt: now.toISOString(),
    ...(protocol !== 'cloud' && { protocol }),
    ttl: openUntil(now),
  };
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
}

export async function removeConnection(scope: EnvScope, subscriberId: string, connectionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.liveConnection(scope, subscriberId, connectionId) }));
}

/**
 * The subscriber's open sockets: one Query of its partition's connection items (a page holds
 * 1 MB, thousands of them; more pages are read if there are more). Items past their TTL that
 * DynamoDB has not deleted yet are left out.
 */
export async function connectionsOf(scope: EnvScope, subscriberId: string, now: Date): Promise<LiveConnection[]> {
  const { pk, skPrefix } = keys.liveConnectionsOfSubscriber(scope, subscriberId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ProjectionExpression: 'connectionId, contextKeys, contextKey, connectedAt, #protocol, #ttl',
    ExpressionAttributeNames: { '#ttl': 'ttl', '#protocol': 'protocol' },
  });
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return items
    .filter((item) => typeof item.ttl !== 'number' || item.ttl > nowSeconds)
    .map((item) => ({
      connectionId: item.connectionId as string,
      contextKeys: (item.contextKeys as string[] | undefined) ?? [],
      contextKey: (item.contextKey as string | undefined) ?? '',
      connectedAt: item.connectedAt as string,
      protocol: item.protocol === 'socket.io' ? ('socket.io' as const) : ('cloud' as const),
    }));
}
