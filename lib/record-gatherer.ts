import { AsyncLocalStorage } from 'node:async_hooks';

// The requests of one consumer invocation's records, gathered so they go out in few requests:
// a request waits until every record of the batch is waiting too or has finished (or
// MAX_WAIT_MS, so a record held up by something slow does not hold back the others), then all the
// waiting requests are handed over at once. What is gathered and how it goes out is the user's
// (lib/queue/outbox.ts: SQS sends; lib/store/insert-batch.ts: DynamoDB inserts). One gatherer per
// invocation, found through its async context, so two invocations (the local runtime runs several
// in one process) never mix, and an invocation that dies sends nothing.

const MAX_WAIT_MS = 25;

export class RecordGatherer<Owner, Request> {
  private running = 0;
  private waiting: Request[] = [];
  private timer: NodeJS.Timeout | undefined;

  /**
   * `context` is the user's own (one per kind of gatherer), in which each record's work runs with
   * `owner` as its store; `flush` takes the waiting requests, at least one.
   */
  constructor(
    private readonly context: AsyncLocalStorage<Owner>,
    private readonly owner: Owner,
    private readonly flush: (requests: Request[]) => void,
  ) {}

  /** Runs one record's work: the requests it makes wait with the other records'. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await this.context.run(this.owner, work);
    } finally {
      this.running--;
      this.flushIfAllWait();
    }
  }

  /** Adds a request to those waiting; the user settles it when it flushes them. */
  gather(request: Request): void {
    this.waiting.push(request);
    this.timer ??= setTimeout(() => this.flushWaiting(), MAX_WAIT_MS);
    this.flushIfAllWait();
  }

  /** Looked at after this turn of the event loop: records started in it have all registered. */
  private flushIfAllWait(): void {
    setImmediate(() => {
      if (this.waiting.length > 0 && this.waiting.length >= this.running) this.flushWaiting();
    });
  }

  private flushWaiting(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0) return;
    const flushing = this.waiting;
    this.waiting = [];
    this.flush(flushing);
  }
}
