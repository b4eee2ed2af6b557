import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { invokeWithFaults } from './faults.ts';
import type { AnyHandler } from './handlers.ts';
import { lambdaContext } from './lambda-context.ts';

// Drives a consumer handler from a queue as Lambda's SQS event source mapping does: batches of
// up to ten, `batchItemFailures` left on the queue, a thrown error failing the whole batch.
// Failed messages come back after the visibility timeout; the queue's redrive policy moves
// them to the dead-letter queue after maxReceiveCount receives. Receives wait up to
// RECEIVE_WAIT_SECONDS (long polling, as Lambda's pollers do): a message sent, or one whose
// visibility ends, answers a waiting receive at once, so a long wait costs no latency, and an idle
// queue costs a request every ten seconds per poller rather than every second. It stays under the
// SDK's request timeout (lib/sdk-timeouts.ts). But a stopped poller aborts its receive on the
// client side only: fauxqs hands the next message to that dead request until its wait is over (the
// message is then lost for its visibility timeout), so whoever stops pollers and goes on sending to
// their queues (the bench pauses its consumers) asks for a short wait.

export const RECEIVE_WAIT_SECONDS = 10;

export interface Poller {
  stop(): Promise<void>;
}

export function startPoller(options: {
  client: SQSClient;
  queueUrl: string;
  handler: AnyHandler;
  name: string;
  batchSize: number;
  /**
   * What the consumer's context says it has (getRemainingTimeInMillis): its queue's
   * consumerTimeoutMs, so that it hands work on before the message could be redelivered.
   */
  timeoutMs: number;
  /** Batches handled at once, as Lambda runs several instances of a consumer (default 1). */
  concurrency?: number;
  onError?: (error: unknown) => void;
  /** How long a receive waits for a message (default RECEIVE_WAIT_SECONDS). */
  receiveWaitSeconds?: number;
  /** Hands batches over through the fault layer (infra/local/faults.ts); only tests set it. */
  faults?: typeof invokeWithFaults;
}): Poller {
  const { client, queueUrl, handler } = options;
  let running = true;
  const abort = new AbortController();

  const arnOf = client
    .send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))
    .then(({ Attributes }) => Attributes?.QueueArn ?? '');
  const worker = async () => {
    const arn = await arnOf;
    while (running) {
      let messages: Message[] | undefined;
      try {
        ({ Messages: messages } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(options.batchSize, 10),
            WaitTimeSeconds: options.receiveWaitSeconds ?? RECEIVE_WAIT_SECONDS,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        ));
      } catch (error) {
        if (running) options.onError?.(error);
        continue;
      }
      if (!messages?.length) continue;

      const event: SQSEvent = {
        Records: messages.map((m) => ({
          messageId: m.MessageId!,
          receiptHandle: m.ReceiptHandle!,
          body: m.Body ?? '',
          attributes: (m.Attributes ?? {}) as SQSEvent['Records'][number]['attributes'],
          messageAttributes: lambdaAttributes(m.MessageAttributes),
          md5OfBody: m.MD5OfBody ?? '',
          eventSource: 'aws:sqs',
          eventSourceARN: arn,
          awsRegion: 'us-east-1',
        })),
      };
      const invoke = async (batch: SQSEvent): Promise<Set<string>> => {
        try {
          const result = (await handler(batch, lambdaContext(options.name, options.timeoutMs))) as SQSBatchResponse | undefined;
          return new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          options.onError?.(error);
          return new Set(batch.Records.map((r) => r.messageId));
        }
      };
      const failed = options.faults
        ? await options.faults(event, invoke, resend).catch((error: unknown) => {
            options.onError?.(error);
            return new Set(event.Records.map((r) => r.messageId));
          })
        : await invoke(event);
      const done = event.Records.filter((r) => !failed.has(r.messageId));
      if (done.length > 0) {
        try {
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          );
        } catch (error) {
          // Not deleted: the messages come back after the visibility timeout, as in AWS.
          options.onError?.(error);
        }
      }
    }
  };
  /** A duplicate of each record, sent to the queue again (the fault layer's later delivery). */
  const resend = async (records: SQSRecord[], attribute: string) => {
    for (let i = 0; i < records.length; i += 10) {
      await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: records.slice(i, i + 10).map((r, j) => ({
            Id: String(j),
            MessageBody: r.body,
            DelaySeconds: Math.floor(Math.random() * 3),
            MessageAttributes: { [attribute]: { DataType: 'String', StringValue: 'true' } },
          })),
        }),
      );
    }
  };
  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => worker());

  return {
    stop: async () => {
      running = false;
      abort.abort();
      await Promise.allSettled(loops);
    },
  };
}

/** SQS message attributes as Lambda's SQS event shows them. */
function lambdaAttributes(attributes: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    out[name] = {
      dataType: value.DataType ?? 'String',
      ...(value.StringValue !== undefined && { stringValue: value.StringValue }),
      ...(value.BinaryValue !== undefined && { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
    };
  }
  return out;
}
