import { verifySessionToken } from '../auth/session-token.ts';
import { socketContextOf, type SocketContext } from './socket-session.ts';

// Who may open an inbox socket: the holder of a session token of ours (the client puts it in
// `?token=`). What it opens becomes the socket's context for the life of the connection.

/** The session `token` opens, as the socket's context; undefined when it opens none. */
export async function admitSocket(token: string | undefined): Promise<SocketContext | undefined> {
  const session = token ? await verifySessionToken(token) : undefined;
  return session && socketContextOf(session);
}
