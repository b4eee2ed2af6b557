import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { required } from '../config.ts';
import { sqs } from './client.ts';

// Sending to the service's queues, in batches of ten, retrying the entries SQS did not take.
// Producers name a queue; its URL comes from the environment variable the stack (or the local
// runtime) sets for functions that may send to it.

export const QUEUE_URL_ENV = { events: 'EVENTS_QUEUE_URL', jobs: 'JOBS_QUEUE_URL' } as const;
export type QueueName = keyof typeof QUEUE_URL_ENV;

export interface OutgoingMessage {
  body: unknown;
  /** 0..900: SQS's own limit; longer waits are chained by the consumer. */
  delaySeconds?: number;
}

const BATCH = 10;
const ATTEMPTS = 5;

export async function sendMessages(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<void> {
  const queueUrl = required(QUEUE_URL_ENV[queue]);
  for (let i = 0; i < messages.length; i += BATCH) {
    let entries: SendMessageBatchRequestEntry[] = messages.slice(i, i + BATCH).map((m, j) => ({
      Id: String(j),
      MessageBody: JSON.stringify(m.body),
      ...(m.delaySeconds && { DelaySeconds: Math.max(0, Math.min(900, Math.ceil(m.delaySeconds))) }),
    }));
    for (let attempt = 1; entries.length > 0; attempt++) {
      const { Failed } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failedIds = new Set((Failed ?? []).map((f) => f.Id));
      entries = entries.filter((e) => failedIds.has(e.Id));
      if (entries.length > 0) {
        if (attempt >= ATTEMPTS) throw new Error(`SQS did not accept ${entries.length} message(s) for ${queue}: ${Failed?.[0]?.Message ?? ''}`);
        await sleep(50 * 2 ** attempt);
      }
    }
  }
}
