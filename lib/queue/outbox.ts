import { AsyncLocalStorage } from 'node:async_hooks';
import { SEND_BATCH, sendBatch, unsentError, type OutgoingMessage, type QueueName } from './send-batch.ts';

// The sends of one consumer invocation's records, gathered: a record that sends waits until every
// other record of the batch is waiting to send too or has finished (or MAX_WAIT_MS, so a record
// held up by a slow provider does not hold back the others' next jobs), then all of them go out
// in SendMessageBatch requests of ten. The events consumer's ten records each queue one job: one
// request instead of ten. Each record learns only its own outcome: it fails if one of its own
// messages is not taken (or its request fails), never for another record's. One outbox per
// invocation, so sends of two invocations (the local runtime runs several in one process) never
// mix, and an invocation that dies sends nothing.

interface Waiting {
  queue: QueueName;
  messages: readonly OutgoingMessage[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

const storage = new AsyncLocalStorage<Outbox>();
const MAX_WAIT_MS = 25;

/** The outbox of the record running in this async context, if any. */
export const currentOutbox = (): Outbox | undefined => storage.getStore();

export class Outbox {
  private running = 0;
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** Runs one record's work: the sends it makes go through this outbox. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await storage.run(this, work);
    } finally {
      this.running--;
      this.flushIfAllWait();
    }
  }

  send(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ queue, messages, resolve, reject });
      this.timer ??= setTimeout(() => this.flush(), MAX_WAIT_MS);
      this.flushIfAllWait();
    });
  }

  /** Looked at after this turn of the event loop: records started in it have all registered. */
  private flushIfAllWait(): void {
    setImmediate(() => {
      if (this.waiting.length > 0 && this.waiting.length >= this.running) this.flush();
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0) return;
    const flushing = this.waiting;
    this.waiting = [];
    for (const queue of new Set(flushing.map((w) => w.queue)))
      void sendTogether(
        queue,
        flushing.filter((w) => w.queue === queue),
      );
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
