import type { SubscriberSession } from '../auth/session-token.ts';

// The session of a socket as API Gateway keeps it: the $connect authorizer's context, which
// API Gateway hands to every later route of the same connection ($disconnect, $default) in
// `requestContext.authorizer`. Its values may only be strings, numbers or booleans, so the
// context keys travel as JSON.

export type SessionContext = Record<'organizationId' | 'environmentId' | 'subscriberId' | 'subscriberDbId' | 'contextKeys', string>;

/**
 * What a connection is: a session (from `?token=`), and `protocol: 'socket.io'` for the legacy
 * clients' sockets, whose session may come later, in their CONNECT packet (lib/live/socketio.ts).
 */
export type SocketContext = Partial<SessionContext> & { protocol?: SocketProtocol };

/** `cloud`: `@novu/js` in PartySocket mode (JSON frames); `socket.io`: the legacy clients. */
export type SocketProtocol = 'cloud' | 'socket.io';

/** The protocol a connection's authorizer context names. */
export const protocolOfSocket = (authorizer: unknown): SocketProtocol =>
  authorizer !== null && typeof authorizer === 'object' && (authorizer as { protocol?: unknown }).protocol === 'socket.io'
    ? 'socket.io'
    : 'cloud';

export function socketContextOf(session: SubscriberSession): SessionContext {
  return {
    organizationId: session.organizationId,
    environmentId: session.environmentId,
    subscriberId: session.subscriberId,
    subscriberDbId: session.subscriberDbId,
    contextKeys: JSON.stringify(session.contextKeys),
  };
}

/** The session a route's `requestContext.authorizer` carries; undefined when it carries none. */
export function sessionOfSocket(authorizer: unknown): SubscriberSession | undefined {
  if (authorizer === null || typeof authorizer !== 'object') return undefined;
  const { organizationId, environmentId, subscriberId, subscriberDbId, contextKeys } = authorizer as Record<string, unknown>;
  if (!isId(organizationId) || !isId(environmentId) || !isId(subscriberId) || !isId(subscriberDbId) || typeof contextKeys !== 'string')
    return undefined;
  let keys: unknown;
  try {
    keys = JSON.parse(contextKeys);
  } catch {
    return undefined;
  }
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string')) return undefined;
  return { organizationId, environmentId, subscriberId, subscriberDbId, contextKeys: keys as string[] };
}

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
