import type { QueueName } from './send-batch.ts';

// What a long wait is (wake-scheduler.ts) and what keeps one until it is due: the contract
// between the wake scheduler and the two that keep wakes (eventbridge-scheduler.ts in AWS,
// table-scheduler.ts locally), which it loads only when a wait is scheduled.

export interface Wake {
  /** Deterministic: the same message due at the same second has the same name. */
  name: string;
  queue: QueueName;
  /** Whole seconds (schedules are). */
  at: Date;
  body: unknown;
}

export interface WakeScheduler {
  /** Schedules the wake, unless one of that name is already scheduled. */
  schedule(wake: Wake): Promise<void>;
}
