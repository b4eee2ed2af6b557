import { verifySessionToken, type SubscriberSession } from '../auth/session-token.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { announce } from './announce.ts';
import { openSocket } from './sockets.ts';
import { connectAck, connectError, parseClientPacket, tokenOfAuth } from './socketio.ts';

// What a legacy client's socket.io frames ask of the server: only CONNECT needs an answer. The
// token is the CONNECT packet's `auth.token` (`<NotificationCenter />`) or else the connection's
// `?token=` (`@novu/headless`, admitted at $connect), as the reference reads
// `auth?.token || query?.token`. A token that opens no subscriber of its environment gets
// CONNECT_ERROR, after which the client gives up (it does not reconnect). Once connected, the
// socket is kept under its subscriber as every inbox socket is, and gets the counts at once:
// that is how a client that reconnected catches up (docs/inbox.md).

const DEFAULT_NAMESPACE = '/';

/** The frame to send back, if any. */
export async function answerSocketIoFrame(
  connectionId: string,
  admitted: SubscriberSession | undefined,
  frame: string | undefined,
): Promise<string | undefined> {
  const packet = parseClientPacket(frame);
  if (packet.type !== 'connect') return undefined;
  if (packet.nsp !== DEFAULT_NAMESPACE) return connectError(packet.nsp, 'Invalid namespace');
  const token = tokenOfAuth(packet.auth);
  const session = token !== undefined ? await verifySessionToken(token) : admitted;
  if (!session || !(await subscriberOfSessionExists(session))) return connectError(DEFAULT_NAMESPACE, 'Unauthorized');
  await openSocket(session, connectionId, new Date(), 'socket.io');
  await announce(session, session.subscriberId, { kind: 'counts' });
  return connectAck(DEFAULT_NAMESPACE, connectionId);
}

async function subscriberOfSessionExists(session: SubscriberSession): Promise<boolean> {
  const subscriber = await getSubscriber(session, session.subscriberId);
  return subscriber?._id === session.subscriberDbId;
}
