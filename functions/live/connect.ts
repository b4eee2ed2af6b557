import { openSocket } from '#lib/live/sockets.ts';
import { socketHandler } from '#lib/live/socket-handler.ts';

// $connect, after the authorizer (authorize.ts) admitted the session token: keep the socket.
export const handler = socketHandler(async ({ connectionId, session }) => {
  if (!session) return { statusCode: 403 };
  await openSocket(session, connectionId);
});
