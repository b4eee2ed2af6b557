// Waits on the service's queues: SQS holds a message at most 15 minutes, so a message due later
// carries its due time and is sent on again, in steps of at most 15 minutes, until it is due
// (snoozes, webhook retries), unless its queue takes scheduled wakes (wake-scheduler.ts: the
// jobs queue, for the pipeline's long delays and digests), which wake it once, when it is due.

/** Longest wait SQS can hold a message for; longer waits are chained. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** The delay to send a message due at `until` with: what is left, at most 15 minutes, never negative. */
export const delaySecondsUntil = (until: Date, now = Date.now()): number =>
  Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((until.getTime() - now) / 1000)));
