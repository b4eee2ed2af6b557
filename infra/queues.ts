import { QUEUE_URL_ENV, WAKE_QUEUE_ARN_ENV } from '#lib/queue/send.ts';

// The queues of the service. The CDK stack creates each with its dead-letter queue and wires
// its consumer; the local runtime creates the same queues in the SQS emulator and polls them
// into the same consumer handlers.
export interface QueueDef {
  /** Logical name; the physical name adds the stage. */
  name: string;
  /** Environment variable through which producers find the queue URL. */
  urlEnv: string;
  /**
   * Environment variable holding the queue's ARN, for a queue that takes scheduled wakes (waits
   * longer than SQS holds, lib/queue/wake-scheduler.ts): a function sending to it may schedule them.
   */
  wakeArnEnv?: string | undefined;
  visibilityTimeoutSeconds: number;
  /** Receives before a message goes to the dead-letter queue. */
  maxReceiveCount: number;
  /** Module (from the repository root) whose `handler` export consumes the queue, if any yet. */
  consumer?: string;
  /** Queues the consumer sends to (it gets their URLs and sqs:SendMessage). */
  sends?: readonly string[];
  /** The consumer sends frames to inbox sockets (it gets the socket API's callback URL and PostToConnection). */
  pushesToSockets?: boolean;
  batchSize: number;
}

/**
 * A consumer's timeout is at most this share of its queue's visibility timeout (AWS's advice for
 * Lambda's SQS event source), so SQS never hands a batch to a second consumer while the first
 * still runs it. The stack checks it at synth; the local pollers give their consumers the same.
 */
export const VISIBILITY_PER_CONSUMER_TIMEOUT = 6;

/** The longest a consumer of a queue with this visibility timeout may run. */
export const consumerTimeoutMs = (visibilityTimeoutSeconds: number): number =>
  Math.floor((visibilityTimeoutSeconds * 1000) / VISIBILITY_PER_CONSUMER_TIMEOUT);

export const queues: readonly QueueDef[] = [
  // Accepted single triggers: one message per event. Bulk work has a queue of its own (`bulk`,
  // next), drained by its own consumers, so a single trigger never waits behind a flood.
  {
    name: 'events',
    urlEnv: QUEUE_URL_ENV.events,
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'functions/consumers/events.ts',
    sends: ['bulk', 'jobs', 'live'],
  },
  // The same fan-out work in bulk: the events of bulk requests and broadcasts, and every segment
  // and continuation a fan-out hands on (lib/pipeline/queue-messages.ts, EventQueue). The same
  // handler as `events` (functions/consumers/bulk.ts), another function with its own instances.
  {
    name: 'bulk',
    urlEnv: QUEUE_URL_ENV.bulk,
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'functions/consumers/bulk.ts',
    sends: ['bulk', 'jobs', 'live'],
  },
  // Jobs of the delivery pipeline: one message per step to run (delayed messages for waits; a wait
  // over 15 minutes is a scheduled wake that sends the message when due: lib/queue/wake-scheduler.ts).
  {
    name: 'jobs',
    urlEnv: QUEUE_URL_ENV.jobs,
    wakeArnEnv: WAKE_QUEUE_ARN_ENV.jobs,
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'functions/consumers/jobs.ts',
    sends: ['jobs', 'live'],
  },
  // What subscribers' open inbox sockets must learn (lib/live/announce.ts), and snoozed messages'
  // wake-ups (delayed messages).
  {
    name: 'live',
    urlEnv: QUEUE_URL_ENV.live,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'functions/consumers/live.ts',
    sends: ['live'],
    pushesToSockets: true,
  },
  // Outbound webhooks: one attempt to deliver one event to one customer endpoint per message
  // (lib/webhooks/deliver.ts); retries are delayed messages on the retry schedule. Failures of an
  // endpoint never fail the message: what reaches the dead-letter queue is a consumer's crash.
  {
    name: 'webhooks',
    urlEnv: QUEUE_URL_ENV.webhooks,
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'functions/consumers/webhooks.ts',
    sends: ['webhooks'],
  },
  // Calls to customers' URLs whose answers API handlers wait for (lib/bridge/outbound-*.ts): a bridge's
  // discover and health check, a code-first step's preview. The API never calls them itself; it
  // sends the request here and awaits the answer item. A request nobody waits for any more is
  // dropped, so a short visibility timeout (six times the consumer's 20 s) and few receives do.
  {
    name: 'outbound',
    urlEnv: QUEUE_URL_ENV.outbound,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'functions/consumers/outbound.ts',
    sends: [],
  },
];

export function queue(name: string): QueueDef {
  const found = queues.find((q) => q.name === name);
  if (!found) throw new Error(`No queue ${name}`);
  return found;
}
