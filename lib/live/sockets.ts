import type { SubscriberSession } from '../auth/session-token.ts';
import { openUntil, removeConnection, saveConnection } from './connections.ts';
import { markLive } from './presence.ts';
import type { SocketProtocol } from './socket-session.ts';

// An inbox socket, once its session is admitted (admit.ts): kept under the subscriber while it
// is open, so pushes find it, and forgotten when it closes. Opening one also stamps the profile
// (presence.ts), so deliveries know to announce.

export async function openSocket(
  session: SubscriberSession,
  connectionId: string,
  now = new Date(),
  protocol: SocketProtocol = 'cloud',
): Promise<void> {
  await Promise.all([saveConnection(session, connectionId, now, protocol), markLive(session, session.subscriberId, openUntil(now))]);
}

export function closeSocket(session: SubscriberSession, connectionId: string): Promise<void> {
  return removeConnection(session, session.subscriberId, connectionId);
}
