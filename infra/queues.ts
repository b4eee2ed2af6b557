import { QUEUE_URL_ENV } from '#lib/queue/send.ts';

// The queues of the service. The CDK stack creates each with its dead-letter queue and wires
// its consumer; the local runtime creates the same queues in the SQS emulator and polls them
// into the same consumer handlers.
export interface QueueDef {
  /** Logical name; the physical name adds the stage. */
  name: string;
  /** Environment variable through which producers find the queue URL. */
  urlEnv: string;
  visibilityTimeoutSeconds: number;
  /** Receives before a message goes to the dead-letter queue. */
  maxReceiveCount: number;
  /** Module (from the repository root) whose `handler` export consumes the queue, if any yet. */
  consumer?: string;
  batchSize: number;
}

export const queues: readonly QueueDef[] = [
  // Bulk-trigger events: one message per accepted event, fanned out to subscribers.
  { name: 'events', urlEnv: QUEUE_URL_ENV.events, visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
  // Jobs of the delivery pipeline: one message per step to run.
  { name: 'jobs', urlEnv: QUEUE_URL_ENV.jobs, visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
];
