import { createHash } from 'node:crypto';
import { ENV, optional, positiveNumber } from '../config.ts';
import { MAX_QUEUE_DELAY_SECONDS } from './delay.ts';
import { WAKE_QUEUE_ARN_ENV, type OutgoingMessage, type QueueName } from './send-batch.ts';
import type { Wake, WakeScheduler } from './wake.ts';

// Long waits. A message due later than SQS can hold (15 minutes) is scheduled once, to be sent to
// its queue when it is due, instead of being sent on every 15 minutes until then: a 30-day delay
// is one schedule and one wake, not ~2,880 consumer runs. In AWS an EventBridge Scheduler
// one-time schedule does it (eventbridge-scheduler.ts); locally an item of the table that the
// local runtime's poller sends on (table-scheduler.ts), so a restart loses nothing. Which one is
// set by the environment, as for the secrets' data keys (lib/crypto/data-keys.ts).
// A wake is named after its message and due time, so scheduling it again (a redelivered job that
// decides the same wait) finds it scheduled; a wake that fires twice sends its message twice,
// which the consumers take as any redelivery (the jobs runner moves a job on once).

/** Waits up to this long go to SQS with a delay; longer ones are scheduled. */
export const longWaitSeconds = (): number => positiveNumber(ENV.longWaitSeconds, MAX_QUEUE_DELAY_SECONDS);

/** The messages to schedule (due later than SQS holds, to a queue that takes wakes) and those to send now. */
export function splitLongWaits(
  queue: QueueName,
  messages: readonly OutgoingMessage[],
  now = Date.now(),
): { later: OutgoingMessage[]; now: OutgoingMessage[] } {
  if (!WAKE_QUEUE_ARN_ENV[queue]) return { later: [], now: [...messages] };
  const threshold = longWaitSeconds() * 1000;
  const isLong = (m: OutgoingMessage) => m.dueAt !== undefined && m.dueAt.getTime() - now > threshold;
  return { later: messages.filter(isLong), now: messages.filter((m) => !isLong(m)) };
}

/** The wake of a message: due at its `dueAt`, rounded up to the second. */
export function wakeOf(queue: QueueName, message: OutgoingMessage): Wake {
  const seconds = Math.ceil(message.dueAt!.getTime() / 1000);
  const digest = createHash('sha256').update(JSON.stringify(message.body)).digest('hex').slice(0, 40);
  // EventBridge Scheduler's names: 1..64 of [0-9a-zA-Z-_.].
  return { name: `${queue}-${digest}-${seconds}`, queue, at: new Date(seconds * 1000), body: message.body };
}

let scheduler: Promise<WakeScheduler> | undefined;

/** The stage's scheduler, loaded on first use (most functions never schedule). */
export function wakeScheduler(): Promise<WakeScheduler> {
  scheduler ??= (async () => {
    const group = optional(ENV.wakeScheduleGroup);
    if (group) {
      const { EventBridgeWakeScheduler } = await import('./eventbridge-scheduler.ts');
      return new EventBridgeWakeScheduler(group);
    }
    if (optional(ENV.localWakes) === 'table') {
      const { TableWakeScheduler } = await import('./table-scheduler.ts');
      return new TableWakeScheduler();
    }
    throw new Error(`Set ${ENV.wakeScheduleGroup} (AWS) or ${ENV.localWakes}=table (local) to schedule long waits`);
  })();
  return scheduler;
}

export async function scheduleWakes(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const target = await wakeScheduler();
  await Promise.all(messages.map((m) => target.schedule(wakeOf(queue, m))));
}
