import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { AnyHandler } from './handlers.ts';
import { lambdaContext } from './lambda-context.ts';

// Drives a consumer handler from a queue as Lambda's SQS event source mapping does: batches of
// up to ten, `batchItemFailures` left on the queue, a thrown error failing the whole batch.
// Failed messages come back after the visibility timeout; the queue's redrive policy moves
// them to the dead-letter queue after maxReceiveCount receives.

export interface Poller {
  stop(): Promise<void>;
}

export function startPoller(options: {
  client: SQSClient;
  queueUrl: string;
  handler: AnyHandler;
  name: string;
  batchSize: number;
  /** Batches handled at once, as Lambda runs several instances of a consumer (default 1). */
  concurrency?: number;
  onError?: (error: unknown) => void;
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
            WaitTimeSeconds: 1,
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
          messageAttributes: {},
          md5OfBody: m.MD5OfBody ?? '',
          eventSource: 'aws:sqs',
          eventSourceARN: arn,
          awsRegion: 'us-east-1',
        })),
      };
      let failed: Set<string>;
      try {
        const result = (await handler(event, lambdaContext(options.name))) as SQSBatchResponse | undefined;
        failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch (error) {
        options.onError?.(error);
        failed = new Set(event.Records.map((r) => r.messageId));
      }
      const done = event.Records.filter((r) => !failed.has(r.messageId));
      if (done.length > 0) {
        await client.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
          }),
        );
      }
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
