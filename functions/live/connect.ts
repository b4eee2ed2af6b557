import { requestOpenPacket } from '#lib/live/announce.ts';
import { openSocket } from '#lib/live/sockets.ts';
import { socketHandler } from '#lib/live/socket-handler.ts';

// $connect, after the authorizer (authorize.ts) let the connection in: keep a `@novu/js` socket;
// have a socket.io one sent its open packet (it is kept once its CONNECT packet names a session).
export const handler = socketHandler(async ({ connectionId, session, protocol }) => {
  if (protocol === 'socket.io') return requestOpenPacket(connectionId);
  if (!session) return { statusCode: 403 };
  await openSocket(session, connectionId);
});
