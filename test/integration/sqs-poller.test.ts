import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { startPoller } from '#infra/local/sqs-poller.ts';
import { sqs } from '#lib/queue/client.ts';

// The local SQS event source: what a consumer reports as failed comes back, and after
// maxReceiveCount receives lands in the dead-letter queue; the rest is deleted once.

async function queueWithDlq(maxReceiveCount: number) {
  const name = `poller-${randomUUID()}`;
  const dlq = await sqs().send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const queue = await sqs().send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount }),
      },
    }),
  );
  return { queueUrl: queue.QueueUrl!, dlqUrl: dlq.QueueUrl! };
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('local SQS poller', () => {
  it('deletes handled messages, retries reported failures, then dead-letters them', async () => {
    const { queueUrl, dlqUrl } = await queueWithDlq(2);
    const seen: Record<string, number> = {};
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      for (const record of event.Records) seen[record.body] = (seen[record.body] ?? 0) + 1;
      return {
        batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({ itemIdentifier: r.messageId })),
      };
    };
    await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: ['ok-1', 'poison', 'ok-2'].map((body, i) => ({ Id: String(i), MessageBody: body })),
      }),
    );

    const poller = startPoller({ client: sqs(), queueUrl, handler, name: 'test', batchSize: 10, timeoutMs: 30_000 });
    try {
      const dead = await waitFor(async () => {
        const { Messages } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, WaitTimeSeconds: 1 }));
        return Messages?.length ? Messages : undefined;
      });
      expect(dead.map((m) => m.Body)).toEqual(['poison']);
      expect(seen['poison']).toBe(2);
      expect(seen['ok-1']).toBe(1);
      expect(seen['ok-2']).toBe(1);
    } finally {
      await poller.stop();
    }
  });

  it('retries the whole batch when the consumer throws', async () => {
    const { queueUrl } = await queueWithDlq(5);
    let calls = 0;
    const received: string[] = [];
    const handler = async (event: SQSEvent) => {
      calls++;
      if (calls === 1) throw new Error('cold start failed');
      received.push(...event.Records.map((r) => r.body));
      return { batchItemFailures: [] };
    };
    await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: '0', MessageBody: 'only' }] }));
    const poller = startPoller({
      client: sqs(),
      queueUrl,
      handler,
      name: 'test',
      batchSize: 10,
      timeoutMs: 30_000,
      onError: () => undefined,
    });
    try {
      await waitFor(async () => (received.length > 0 ? true : undefined));
      expect(received).toEqual(['only']);
      expect(calls).toBe(2);
    } finally {
      await poller.stop();
    }
  });
});
