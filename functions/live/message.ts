import { replyTo } from '#lib/live/heartbeat.ts';
import { socketHandler } from '#lib/live/socket-handler.ts';
import { answerSocketIoFrame } from '#lib/live/socketio-session.ts';

// $default: every frame the client sends (`@novu/js`: its `ping` heartbeat; socket.io: CONNECT
// and the rest); the answer goes back on the socket through the route's route response.
export const handler = socketHandler(async ({ connectionId, session, protocol, frame }) => {
  const reply = protocol === 'socket.io' ? await answerSocketIoFrame(connectionId, session, frame) : replyTo(frame);
  return reply === undefined ? { statusCode: 200 } : { statusCode: 200, body: reply };
});
