import type { SubscriberSession } from '../auth/session-token.ts';
import { removeConnection, saveConnection } from './connections.ts';

// An inbox socket, once its session is admitted (admit.ts): kept under the subscriber while it
// is open, so pushes find it, and forgotten when it closes.

export function openSocket(session: SubscriberSession, connectionId: string, now = new Date()): Promise<void> {
  return saveConnection(session, connectionId, now);
}

export function closeSocket(session: SubscriberSession, connectionId: string): Promise<void> {
  return removeConnection(session, session.subscriberId, connectionId);
}
