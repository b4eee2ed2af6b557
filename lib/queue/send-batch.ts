import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { required } from '../config.ts';
import { sqs } from './client.ts';
import { MAX_QUEUE_DELAY_SECONDS } from './delay.ts';

// One SendMessageBatch to one of the service's queues, and what every sender shares: the queue
// names, whose URLs come from the environment variable the stack (or the local runtime) sets for
// functions that may send to them, and the shape of a message.

export const QUEUE_URL_ENV = {
  events: 'EVENTS_QUEUE_URL',
  bulk: 'BULK_QUEUE_URL',
  jobs: 'JOBS_QUEUE_URL',
  live: 'LIVE_QUEUE_URL',
  webhooks: 'WEBHOOKS_QUEUE_URL',
  outbound: 'OUTBOUND_QUEUE_URL',
} as const;
export type QueueName = keyof typeof QUEUE_URL_ENV;
/** The queues that take scheduled wakes (wake-scheduler.ts), with the variable that holds each one's ARN (AWS). */
export const WAKE_QUEUE_ARN_ENV: Partial<Record<QueueName, string>> = { jobs: 'JOBS_QUEUE_ARN' };

export interface OutgoingMessage {
  body: unknown;
  /** 0..900: SQS's own limit; longer waits are chained by the consumer, or scheduled (`dueAt`). */
  delaySeconds?: number;
  /**
   * When the message is due. Sent to a queue that takes scheduled wakes (wake-scheduler.ts) and
   * due later than SQS can hold, it is scheduled once for that time instead of sent now.
   */
  dueAt?: Date;
}

/** Messages per SendMessageBatch (SQS's limit). */
export const SEND_BATCH = 10;
const ATTEMPTS = 5;

/**
 * Sends up to ten messages as one SendMessageBatch, again for the entries SQS did not take, up to
 * five times; answers the indexes (into `messages`) still not taken, with SQS's reason. A failed
 * request throws: none of its messages can be known to be sent.
 */
export async function sendBatch(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<Map<number, string>> {
  const queueUrl = required(QUEUE_URL_ENV[queue]);
  let entries: SendMessageBatchRequestEntry[] = messages.map((m, j) => ({
    Id: String(j),
    MessageBody: JSON.stringify(m.body),
    ...(m.delaySeconds && { DelaySeconds: Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(m.delaySeconds))) }),
  }));
  const unsent = new Map<number, string>();
  for (let attempt = 1; entries.length > 0; attempt++) {
    const { Failed } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    const reasons = new Map((Failed ?? []).map((f) => [f.Id, f.Message ?? f.Code ?? 'refused']));
    entries = entries.filter((e) => reasons.has(e.Id));
    if (entries.length === 0) break;
    if (attempt >= ATTEMPTS) {
      for (const e of entries) unsent.set(Number(e.Id), reasons.get(e.Id)!);
      break;
    }
    await sleep(50 * 2 ** attempt);
  }
  return unsent;
}

export function unsentError(queue: QueueName, unsent: ReadonlyMap<number, string>): Error {
  return new Error(`SQS did not accept ${unsent.size} message(s) for ${queue}: ${[...unsent.values()][0] ?? ''}`);
}
