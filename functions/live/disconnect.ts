import { closeSocket } from '#lib/live/sockets.ts';
import { socketHandler } from '#lib/live/socket-handler.ts';

// $disconnect: forget the socket (API Gateway delivers this at best effort; the item's TTL and
// the push's 410 handling clean up after a lost one).
export const handler = socketHandler(async ({ connectionId, session }) => {
  if (session) await closeSocket(session, connectionId);
});
