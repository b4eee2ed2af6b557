import { wakeMessage } from '../inbox/snooze.ts';
import { isId, parse } from '../queue/parse-message.ts';
import type { EnvScope } from '../scope.ts';
import { scheduleWake, type LiveMessage, type SocketOpenMessage } from './announce.ts';
import { PushReads, pushToSubscriber } from './push.ts';
import { sendOpenPacket } from './socket-open.ts';

// The live consumer's work for one message of the `live` queue: wake a snoozed message when it
// is due (again later when not yet), push what changed to the subscriber's open sockets, and
// send a new socket.io connection its open packet (socket-open.ts). `reads`: what the batch's
// pushes share (push.ts).

export async function consumeLive(body: string, reads = new PushReads()): Promise<void> {
  const message = parseLiveMessage(body);
  if (!message) return;
  if (message.kind === 'socket-open') return sendOpenPacket(message);
  const scope: EnvScope = { organizationId: message.organizationId, environmentId: message.environmentId };
  const { event, subscriberId } = message;
  if (event.kind === 'wake') {
    if (Date.parse(event.until) > Date.now()) return scheduleWake(scope, subscriberId, event.messageId, new Date(event.until));
    const woken = await wakeMessage(scope, subscriberId, event.messageId, event.until);
    if (woken?.changed) {
      reads.changed(scope, subscriberId);
      await pushToSubscriber(scope, subscriberId, { kind: 'received', messageId: event.messageId }, new Date(), reads);
    }
    return;
  }
  await pushToSubscriber(scope, subscriberId, event, new Date(), reads);
}

function isLiveMessage(m: Record<string, unknown>): boolean {
  if (m.kind === 'socket-open') return isId(m.connectionId) && typeof m.attempt === 'number';
  const event = m.event as Record<string, unknown> | null;
  if (
    m.kind !== 'live' ||
    !isId(m.organizationId) ||
    !isId(m.environmentId) ||
    !isId(m.subscriberId) ||
    !event ||
    typeof event !== 'object'
  )
    return false;
  if (event.kind === 'counts') return true;
  if (event.kind === 'received') return isId(event.messageId);
  if (event.kind === 'wake') return isId(event.messageId) && isId(event.until) && !Number.isNaN(Date.parse(event.until));
  return false;
}

/** A message that is not one of ours can never succeed: logged and dropped. */
const parseLiveMessage = (body: string) => parse<LiveMessage | SocketOpenMessage>(body, isLiveMessage);
