import { verifySessionToken } from '../auth/session-token.ts';
import { isSocketIoHandshake } from './socketio.ts';
import { socketContextOf, type SessionContext, type SocketContext } from './socket-session.ts';

// Who may open an inbox socket. `@novu/js` must bring a session token of ours in `?token=`; what
// it opens becomes the socket's context for the life of the connection. A socket.io handshake
// (the legacy clients) is let in without one: `<NotificationCenter />` sends its token only in
// the socket.io CONNECT packet, which the socket's own route checks (lib/live/socketio-session.ts)
// before the socket joins anything; `@novu/headless`'s `?token=` is kept in the context for it.

/** The session `token` opens, as the socket's context; undefined when it opens none. */
export async function admitSocket(token: string | undefined): Promise<SessionContext | undefined> {
  const session = token ? await verifySessionToken(token) : undefined;
  return session && socketContextOf(session);
}

export type Admission = { allow: true; context: SocketContext } | { allow: false; reason: 'no-token' | 'bad-token' };

/** Whether a connection with this query string is let in, and its context. */
export async function admitConnection(query: Record<string, string | undefined> | null | undefined): Promise<Admission> {
  const session = await admitSocket(query?.token);
  if (isSocketIoHandshake(query)) return { allow: true, context: { protocol: 'socket.io', ...session } };
  if (session) return { allow: true, context: session };
  return { allow: false, reason: query?.token ? 'bad-token' : 'no-token' };
}
