import { sendMessages } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';

// What the pipeline's queues carry: only keys. The event and the notification are read from the
// table, so a message is small whatever the payload, and a redelivered message re-reads state
// instead of trusting a stale copy.

/**
 * Fan out one accepted trigger (the `events` queue). Without `segment` it is the trigger's walk:
 * single recipients, then the audience read page by page and handed out as segments; `cursor`
 * continues a walk that ran out of time. With `segment` it delivers those members of the audience.
 */
export interface EventMessage {
  kind: 'event';
  organizationId: string;
  environmentId: string;
  transactionId: string;
  cursor?: string;
  segment?: Segment;
}

/**
 * Members of a trigger's audience, delivered by one message: a topic's (`source` = its index in `to`) or, for
 * a broadcast (-1), the environment's.
 */
export interface Segment {
  source: number;
  subscriberIds: string[];
}

/** Run one job of one notification (the `jobs` queue). */
export interface JobMessage {
  kind: 'job';
  organizationId: string;
  environmentId: string;
  transactionId: string;
  subscriberId: string;
  jobIndex: number;
  /** The trigger's `notificationShards`, to find the notification's partition (absent: 1). */
  notificationShards?: number;
}

/**
 * The two queues of fan-out work, drained by consumers of their own (docs/architecture.md, "No
 * noisy neighbours"). `events` takes a single trigger's walk; `bulk` takes the events of a bulk
 * request, a broadcast, and whatever a walk hands on past its first segment (the rest of a large
 * audience, a walk that ran out of time). So a flood of one environment queues behind itself, and
 * another environment's single trigger never waits for it.
 */
export type EventQueue = 'events' | 'bulk';
/** Where a fan-out's segments and continuations go. */
export const HANDED_ON: EventQueue = 'bulk';

export function enqueueEvents(scope: EnvScope, transactionIds: readonly string[], queue: EventQueue): Promise<void> {
  return sendMessages(
    queue,
    transactionIds.map((transactionId) => ({ body: eventMessage(scope, transactionId) })),
  );
}

export function eventMessage(scope: EnvScope, transactionId: string, cursor?: string): EventMessage {
  return {
    kind: 'event',
    organizationId: scope.organizationId,
    environmentId: scope.environmentId,
    transactionId,
    ...(cursor && { cursor }),
  };
}

export function segmentMessage(scope: EnvScope, transactionId: string, segment: Segment): EventMessage {
  return { kind: 'event', organizationId: scope.organizationId, environmentId: scope.environmentId, transactionId, segment };
}

/** `notificationShards`: the trigger's (or its notification's), whenever it has one. */
export function jobMessage(
  scope: EnvScope,
  transactionId: string,
  subscriberId: string,
  jobIndex: number,
  notificationShards?: number,
): JobMessage {
  return {
    kind: 'job',
    organizationId: scope.organizationId,
    environmentId: scope.environmentId,
    transactionId,
    subscriberId,
    jobIndex,
    ...(notificationShards !== undefined && notificationShards > 1 && { notificationShards }),
  };
}

export const scopeOfMessage = (m: EventMessage | JobMessage): EnvScope => ({
  organizationId: m.organizationId,
  environmentId: m.environmentId,
});
