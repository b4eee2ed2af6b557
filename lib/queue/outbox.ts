import { AsyncLocalStorage } from 'node:async_hooks';
import { RecordGatherer } from '../record-gatherer.ts';
import { SEND_BATCH, sendBatch, unsentError, type OutgoingMessage, type QueueName } from './send-batch.ts';

// The sends of one consumer invocation's records, gathered (lib/record-gatherer.ts: until every
// other record of the batch is waiting to send too or has finished, or a short wait, so a record
// held up by a slow provider does not hold back the others' next jobs), then all of them go out
// in SendMessageBatch requests of ten. The events consumer's ten records each queue one job: one
// request instead of ten. Each record learns only its own outcome: it fails if one of its own
// messages is not taken (or its request fails), never for another record's.

interface Waiting {
  queue: QueueName;
  messages: readonly OutgoingMessage[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

const storage = new AsyncLocalStorage<Outbox>();

/** The outbox of the record running in this async context, if any. */
export const currentOutbox = (): Outbox | undefined => storage.getStore();

export class Outbox {
  private readonly gatherer = new RecordGatherer<Outbox, Waiting>(storage, this, (waiting) => {
    for (const queue of new Set(waiting.map((w) => w.queue)))
      void sendTogether(
        queue,
        waiting.filter((w) => w.queue === queue),
      );
  });

  /** Runs one record's work: the sends it makes go through this outbox. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.gatherer.run(work);
  }

  send(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<void> {
    return new Promise((resolve, reject) => this.gatherer.gather({ queue, messages, resolve, reject }));
  }
}

/** Sends the waiting sends of one queue in batches of ten; settles each by its own messages. */
async function sendTogether(queue: QueueName, senders: readonly Waiting[]): Promise<void> {
  const entries = senders.flatMap((sender) => sender.messages.map((message) => ({ sender, message })));
  const failed = new Map<Waiting, unknown>();
  await Promise.all(
    Array.from({ length: Math.ceil(entries.length / SEND_BATCH) }, async (_, b) => {
      const batch = entries.slice(b * SEND_BATCH, (b + 1) * SEND_BATCH);
      try {
        const unsent = await sendBatch(
          queue,
          batch.map((e) => e.message),
        );
        for (const [index, reason] of unsent) {
          const { sender } = batch[index]!;
          if (!failed.has(sender)) failed.set(sender, unsentError(queue, new Map([[index, reason]])));
        }
      } catch (error) {
        for (const { sender } of batch) if (!failed.has(sender)) failed.set(sender, error);
      }
    }),
  );
  for (const sender of senders) {
    if (failed.has(sender)) sender.reject(failed.get(sender));
    else sender.resolve();
  }
}
