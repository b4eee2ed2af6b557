import { contextKeyOf } from '../context-keys.ts';
import { unreadCounts, unseenCount, type InboxRef } from '../inbox/counts.ts';
import { rawMessage } from '../inbox/message-views.ts';
import { logger } from '../logger.ts';
import type { StoredMessage } from '../messages/model.ts';
import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { widgetCounts } from '../messages/widget-counts.ts';
import { widgetMessage } from '../messages/widget-view.ts';
import type { LiveEvent } from './announce.ts';
import { connectionsOf, removeConnection, type LiveConnection } from './connections.ts';
import { receivedFrame, unreadFrame, unseenFrame } from './frames.ts';
import { postFrame } from './sender.ts';
import { eventPacket } from './socketio.ts';

// The one sender of socket frames. What changed in a subscriber's inbox goes to its open sockets:
// a message that arrived to the sockets of exactly its context keys (the reference compares the
// sets), first as `notification_received`, then the new counts of that context; a change of state
// (read, seen, archived, snoozed) sends every socket the counts of its own context. A subscriber
// without sockets costs one Query and nothing else. Each socket gets the frames of its protocol:
// `@novu/js`'s JSON frames, or socket.io event packets for the legacy clients, whose API knows no
// contexts (every arrival, and the counts of all the subscriber's in-app messages). The pushes of
// one consumer batch to one subscriber share its sockets and counts (PushReads).

/**
 * What the pushes of one batch of the live queue read once per subscriber: its open sockets and
 * the counts of each of its inboxes. Every change the batch's messages announce was stored before
 * the batch was received, so counts read during the batch are each push's counts (or newer);
 * a change made during the batch (a wake) forgets the subscriber's reads (`changed`).
 */
export class PushReads {
  private reads = new Map<string, Promise<unknown>>();
  private gone = new Set<string>();

  once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let found = this.reads.get(key) as Promise<T> | undefined;
    if (!found) {
      found = read();
      this.reads.set(key, found);
      // A failed read is not kept: the next push reads again.
      found.catch(() => this.reads.get(key) === found && this.reads.delete(key));
    }
    return found;
  }

  async connectionsOf(scope: EnvScope, subscriberId: string, now: Date): Promise<LiveConnection[]> {
    const all = await this.once(`conn/${subscriberKey(scope, subscriberId)}`, () => connectionsOf(scope, subscriberId, now));
    return all.filter((c) => !this.gone.has(c.connectionId));
  }

  /** A socket found gone: the batch's later pushes skip it. */
  goneConnection(connectionId: string): void {
    this.gone.add(connectionId);
  }

  /** The subscriber's inbox changed during the batch: its counts are read again. */
  changed(scope: EnvScope, subscriberId: string): void {
    const prefix = `counts/${subscriberKey(scope, subscriberId)}/`;
    for (const key of this.reads.keys()) if (key.startsWith(prefix)) this.reads.delete(key);
  }
}

const subscriberKey = (scope: EnvScope, subscriberId: string) => `${scope.organizationId}/${scope.environmentId}/${subscriberId}`;

export async function pushToSubscriber(
  scope: EnvScope,
  subscriberId: string,
  event: Exclude<LiveEvent, { kind: 'wake' }>,
  now = new Date(),
  reads = new PushReads(),
): Promise<void> {
  const connections = await reads.connectionsOf(scope, subscriberId, now);
  if (connections.length === 0) return;

  let arrived: { message: StoredMessage; subscriber: Subscriber | undefined } | undefined;
  let audience = connections;
  if (event.kind === 'received') {
    const [message, subscriber] = await Promise.all([getMessage(scope, subscriberId, event.messageId), getSubscriber(scope, subscriberId)]);
    // Deleted since, or not an inbox message: nothing arrived (a deletion sends its own counts).
    if (!message || message.channel !== 'in_app') return;
    const contextKey = contextKeyOf(message.contextKeys);
    audience = connections.filter((c) => c.protocol === 'socket.io' || c.contextKey === contextKey);
    // Snoozed again before this push: not in the inbox now, but the counts still went.
    if (!message.snoozedUntil) arrived = { message, subscriber };
  }
  if (audience.length === 0) return;
  const firstFrame = (c: LiveConnection): string | undefined =>
    arrived &&
    (c.protocol === 'socket.io'
      ? eventPacket('notification_received', { message: widgetMessage(arrived.message, arrived.subscriber) })
      : receivedFrame(rawMessage(arrived.message, arrived.subscriber)));

  // The counts once per context (and protocol) among the sockets, and among the batch's pushes
  // to this subscriber, computed while the first frame goes out.
  const counts = (c: LiveConnection): Promise<string[]> => {
    const frames = reads.once(
      `counts/${subscriberKey(scope, subscriberId)}/${c.protocol === 'socket.io' ? 'socket.io' : `cloud:${c.contextKey}`}`,
      () =>
        c.protocol === 'socket.io'
          ? socketIoCountFrames(scope, subscriberId)
          : countFrames({ scope, subscriberId, contextKeys: c.contextKeys }),
    );
    // Awaited by each socket after its first frame; a failure meanwhile is theirs to see, not unhandled.
    frames.catch(() => undefined);
    return frames;
  };
  const countsOf = new Map(audience.map((c) => [c.connectionId, counts(c)]));
  // Every socket gets its frames even when another's fail; then the failure fails the queue message.
  const outcomes = await Promise.allSettled(
    audience.map((c) => sendInOrder(scope, subscriberId, c, firstFrame(c), countsOf.get(c.connectionId)!, reads)),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}

async function countFrames(inbox: InboxRef): Promise<string[]> {
  const [unread, unseen] = await Promise.all([unreadCounts(inbox), unseenCount(inbox)]);
  return [unreadFrame(unread), unseenFrame(unseen)];
}

async function socketIoCountFrames(scope: EnvScope, subscriberId: string): Promise<string[]> {
  const { unseen, unread } = await widgetCounts(scope, subscriberId);
  return [
    eventPacket('unseen_count_changed', { unseenCount: unseen.count, hasMore: unseen.hasMore }),
    eventPacket('unread_count_changed', { unreadCount: unread.count, hasMore: unread.hasMore }),
  ];
}

/** The socket's frames one after another, in order; a socket found gone is forgotten at once. */
async function sendInOrder(
  scope: EnvScope,
  subscriberId: string,
  connection: LiveConnection,
  first: string | undefined,
  counts: Promise<string[]>,
  reads: PushReads,
): Promise<void> {
  const send = async (frame: string): Promise<boolean> => {
    const outcome = await postFrame(connection.connectionId, frame);
    if (outcome === 'gone') {
      reads.goneConnection(connection.connectionId);
      await removeConnection(scope, subscriberId, connection.connectionId);
      return false;
    }
    if (outcome === 'too-large')
      logger.warn('Frame over the socket size limit not sent', {
        subscriberId,
        connectionId: connection.connectionId,
        bytes: Buffer.byteLength(frame),
      });
    return true;
  };
  if (first !== undefined && !(await send(first))) return;
  for (const frame of await counts) if (!(await send(frame))) return;
}
