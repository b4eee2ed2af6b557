import { replyTo } from '#lib/live/heartbeat.ts';
import { socketHandler } from '#lib/live/socket-handler.ts';

// $default: every frame the client sends (only its `ping` heartbeat); the answer goes back on
// the socket through the route's route response.
export const handler = socketHandler(async ({ frame }) => {
  const reply = replyTo(frame);
  return reply === undefined ? { statusCode: 200 } : { statusCode: 200, body: reply };
});
