import type { SQSClient } from '@aws-sdk/client-sqs';

// What the bench's SQS clients sent and deleted, by queue and by kind of message: a section that
// cannot settle says which queue holds what (`outstanding`), not only how many messages. Kinds
// are read from the bodies the service sends (`kind`, and a live message's `event.kind`).

export interface SqsCounts {
  sendRequests: number;
  messagesSent: number;
  receiveRequests: number;
  messagesReceived: number;
  deleteRequests: number;
}

export const EMPTY_SQS: SqsCounts = { sendRequests: 0, messagesSent: 0, receiveRequests: 0, messagesReceived: 0, deleteRequests: 0 };

interface SendEntry {
  MessageBody?: string;
}
interface ReceivedMessage {
  Body?: string;
  ReceiptHandle?: string;
}
interface DeleteEntry {
  ReceiptHandle?: string;
}
interface SqsInput {
  QueueUrl?: string;
  MessageBody?: string;
  ReceiptHandle?: string;
  Entries?: (SendEntry & DeleteEntry)[];
}

/** The kind of a message body, e.g. `job`, `live/received`, `webhook`. */
export function kindOf(body: string | undefined): string {
  try {
    const parsed = JSON.parse(body ?? '') as { kind?: unknown; event?: { kind?: unknown } };
    const kind = typeof parsed.kind === 'string' ? parsed.kind : 'unknown';
    return typeof parsed.event?.kind === 'string' ? `${kind}/${parsed.event.kind}` : kind;
  } catch {
    return 'unparsed';
  }
}

export class QueueLedger {
  readonly counts: SqsCounts = { ...EMPTY_SQS };
  /** queue → kind → sent − deleted. */
  private readonly outstandingByQueue = new Map<string, Map<string, number>>();
  /** Receipt handle → the queue and kind of the message it deletes. */
  private readonly received = new Map<string, { queue: string; kind: string }>();

  constructor(private readonly queueNameOf: (url: string) => string) {}

  private add(queue: string, kind: string, n: number): void {
    const kinds = this.outstandingByQueue.get(queue) ?? new Map<string, number>();
    kinds.set(kind, (kinds.get(kind) ?? 0) + n);
    this.outstandingByQueue.set(queue, kinds);
  }

  private deleted(handle: string | undefined): void {
    const seen = handle === undefined ? undefined : this.received.get(handle);
    if (!seen || handle === undefined) return;
    this.received.delete(handle);
    this.add(seen.queue, seen.kind, -1);
  }

  /** Counts the requests of `client` from now on. */
  meter(client: SQSClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const name = (context as { commandName?: string }).commandName;
        const input = args.input as SqsInput;
        const queue = this.queueNameOf(input.QueueUrl ?? '');
        const result = await next(args);
        const counts = this.counts;
        if (name === 'SendMessageBatchCommand') {
          counts.sendRequests++;
          counts.messagesSent += input.Entries?.length ?? 0;
          // Entries SQS refused are retried by the sender and counted then.
          const failed = new Set(((result.output as { Failed?: { Id?: string }[] }).Failed ?? []).map((f) => f.Id));
          for (const entry of (input.Entries ?? []) as (SendEntry & { Id?: string })[])
            if (!failed.has(entry.Id)) this.add(queue, kindOf(entry.MessageBody), 1);
        } else if (name === 'SendMessageCommand') {
          counts.sendRequests++;
          counts.messagesSent++;
          this.add(queue, kindOf(input.MessageBody), 1);
        } else if (name === 'ReceiveMessageCommand') {
          const messages = (result.output as { Messages?: ReceivedMessage[] }).Messages ?? [];
          // Empty long polls are requests too, but their number depends on idle time, not on load.
          if (messages.length > 0) {
            counts.receiveRequests++;
            counts.messagesReceived += messages.length;
          }
          for (const m of messages) if (m.ReceiptHandle) this.received.set(m.ReceiptHandle, { queue, kind: kindOf(m.Body) });
        } else if (name === 'DeleteMessageBatchCommand') {
          counts.deleteRequests++;
          const failed = new Set(((result.output as { Failed?: { Id?: string }[] }).Failed ?? []).map((f) => f.Id));
          for (const entry of (input.Entries ?? []) as (DeleteEntry & { Id?: string })[])
            if (!failed.has(entry.Id)) this.deleted(entry.ReceiptHandle);
        } else if (name === 'DeleteMessageCommand') {
          counts.deleteRequests++;
          this.deleted(input.ReceiptHandle);
        }
        return result;
      },
      { step: 'initialize', name: 'benchSqsMeter' },
    );
  }

  /** Messages sent to `queue` and not deleted yet, by kind (those the bench's clients saw). */
  outstanding(queue: string): Record<string, number> {
    return Object.fromEntries([...(this.outstandingByQueue.get(queue) ?? new Map<string, number>())].filter(([, n]) => n > 0));
  }
}
