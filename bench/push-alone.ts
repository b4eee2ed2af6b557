import { mapConcurrently } from '#lib/concurrency.ts';
import { unreadCounts, unseenCount } from '#lib/inbox/counts.ts';
import { rawMessage } from '#lib/inbox/message-views.ts';
import { inboxPage } from '#lib/inbox/repository.ts';
import { connectionsOf } from '#lib/live/connections.ts';
import { receivedFrame, unreadFrame, unseenFrame } from '#lib/live/frames.ts';
import { pushToSubscriber, PushReads } from '#lib/live/push.ts';
import { postFrame } from '#lib/live/sender.ts';
import { getMessage } from '#lib/messages/repository.ts';
import { getSubscriber } from '#lib/subscribers/repository.ts';
import { medianRounds, type AloneRate } from './alone.ts';
import type { BenchEnv } from './seed.ts';

// The socket push of an arrival with nothing around it: no live queue, no consumer, no pipeline.
// The push called directly for messages already delivered to subscribers with an open socket, and
// its parts apart: its three frames (PostToConnection through the local socket API to the bench's
// own `ws` clients); the reads no push can go without, where the subscriber's sockets are (one
// Query) and the unread and unseen counts the frames carry (two); and the reads of the message and
// profile the first frame shows. Set beside the pipeline's pair "everything on" − "no open sockets" of the same run,
// it says how much of what sockets cost a delivery is the push's own requests.

export interface PushAlone {
  arrivals: number;
  /** Per arrival (median of three rounds each): the push called directly, and its parts. */
  push: AloneRate;
  frames: AloneRate;
  sockets: AloneRate;
  counts: AloneRate;
  messageAndProfile: AloneRate;
}

interface Arrival {
  subscriberId: string;
  messageId: string;
  connectionId: string;
  contextKeys: string[];
  frames: string[];
}

/** Per subscriber with a socket: its first socket, the newest message of that socket's inbox, and the frames an arrival sends. */
async function sampleArrivals(env: BenchEnv, subscriberIds: readonly string[]): Promise<Arrival[]> {
  const found = await mapConcurrently(subscriberIds, 8, async (subscriberId): Promise<Arrival | undefined> => {
    const [connection] = await connectionsOf(env.scope, subscriberId, new Date());
    if (!connection) return undefined;
    const [page, subscriber] = await Promise.all([
      inboxPage(env.scope, subscriberId, connection.contextKey, { filter: {}, offset: 0, limit: 1 }),
      getSubscriber(env.scope, subscriberId),
    ]);
    const [message] = page.messages;
    if (!message) return undefined;
    const arrival = { subscriberId, messageId: message._id, connectionId: connection.connectionId, contextKeys: connection.contextKeys };
    const [unread, unseen] = await counts(env, arrival);
    return { ...arrival, frames: [receivedFrame(rawMessage(message, subscriber)), unreadFrame(unread), unseenFrame(unseen)] };
  });
  const arrivals = found.filter((a): a is Arrival => a !== undefined);
  if (arrivals.length === 0) throw new Error('push alone: no subscriber with a socket and a message');
  return arrivals;
}

/** The unread and unseen counts of the inbox the arrival's socket shows. */
const counts = (env: BenchEnv, a: Pick<Arrival, 'subscriberId' | 'contextKeys'>) => {
  const inbox = { scope: env.scope, subscriberId: a.subscriberId, contextKeys: a.contextKeys };
  return Promise.all([unreadCounts(inbox), unseenCount(inbox)]);
};

/** `count` arrivals per variant and round, over the subscribers' sockets in turn. */
export async function measurePushAlone(env: BenchEnv, subscriberIds: readonly string[], count: number): Promise<PushAlone> {
  const arrivals = await sampleArrivals(env, subscriberIds);
  const at = (i: number) => arrivals[i % arrivals.length]!;
  const rates = await medianRounds(
    {
      // A PushReads per arrival: the consumer shares reads only among one batch's pushes to one subscriber.
      push: (i) => {
        const { subscriberId, messageId } = at(i);
        return pushToSubscriber(env.scope, subscriberId, { kind: 'received', messageId }, new Date(), new PushReads());
      },
      frames: async (i) => {
        for (const frame of at(i).frames) await postFrame(at(i).connectionId, frame);
      },
      sockets: (i) => connectionsOf(env.scope, at(i).subscriberId, new Date()),
      counts: (i) => counts(env, at(i)),
      messageAndProfile: (i) =>
        Promise.all([getMessage(env.scope, at(i).subscriberId, at(i).messageId), getSubscriber(env.scope, at(i).subscriberId)]),
    },
    count,
  );
  return { arrivals: count, ...rates };
}
