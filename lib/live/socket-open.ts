import { logger } from '../logger.ts';
import { requestOpenPacket, type SocketOpenMessage } from './announce.ts';
import { postFrame } from './sender.ts';
import { openPacket } from './socketio.ts';

// A socket.io connection must first receive Engine.IO's open packet, and API Gateway's $connect
// cannot send it: the connection exists only once $connect has answered. So $connect hands the
// `live` queue a `socket-open` message (announce.ts) and the live consumer sends the packet. If the consumer
// comes first (the connection is not there yet), it tries again a second later, a few times;
// the client waits 20 s for the packet before it retries the connection itself.

const MAX_ATTEMPTS = 5;

export async function sendOpenPacket({ connectionId, attempt }: SocketOpenMessage): Promise<void> {
  const outcome = await postFrame(connectionId, openPacket(connectionId));
  if (outcome !== 'gone') return;
  if (attempt < MAX_ATTEMPTS) return requestOpenPacket(connectionId, attempt + 1, 1);
  logger.warn('Socket gone before its open packet could be sent', { connectionId });
}
