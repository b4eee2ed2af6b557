import { delaySecondsUntil } from '../queue/delay.ts';
import { sendMessages } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';

// What a subscriber's open inbox sockets must learn, handed to the `live` queue: pushing happens
// on the queue side (functions/consumers/live.ts), never in the request or step that changed
// something. Inside a consumer the sends go out with its batch's other messages (lib/queue/outbox.ts).

export type LiveEvent =
  /** An in-app message arrived (or came back from a snooze): `notification_received`, then the counts. */
  | { kind: 'received'; messageId: string }
  /** Read, seen, archived or snoozed state changed: the counts. */
  | { kind: 'counts' }
  /** A snoozed message is due back at `until` (ISO): the live consumer wakes it then. */
  | { kind: 'wake'; messageId: string; until: string };

/** One message of the `live` queue. */
export interface LiveMessage {
  kind: 'live';
  organizationId: string;
  environmentId: string;
  subscriberId: string;
  event: LiveEvent;
}

export const liveMessage = (scope: EnvScope, subscriberId: string, event: LiveEvent): LiveMessage => ({
  kind: 'live',
  organizationId: scope.organizationId,
  environmentId: scope.environmentId,
  subscriberId,
  event,
});

export function announce(scope: EnvScope, subscriberId: string, event: Exclude<LiveEvent, { kind: 'wake' }>): Promise<void> {
  return sendMessages('live', [{ body: liveMessage(scope, subscriberId, event) }]);
}

/** Queues the wake-up of a snoozed message, at most 15 minutes ahead (the consumer sends it on again until due). */
export function scheduleWake(scope: EnvScope, subscriberId: string, messageId: string, until: Date, now = Date.now()): Promise<void> {
  return sendMessages('live', [
    {
      body: liveMessage(scope, subscriberId, { kind: 'wake', messageId, until: until.toISOString() }),
      delaySeconds: delaySecondsUntil(until, now),
    },
  ]);
}

/** A new socket.io connection, to be sent its open packet by the live consumer (socket-open.ts). */
export interface SocketOpenMessage {
  kind: 'socket-open';
  connectionId: string;
  attempt: number;
}

export function requestOpenPacket(connectionId: string, attempt = 1, delaySeconds = 0): Promise<void> {
  const body: SocketOpenMessage = { kind: 'socket-open', connectionId, attempt };
  return sendMessages('live', [{ body, ...(delaySeconds > 0 && { delaySeconds }) }]);
}
