import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  ReceiveMessageCommand,
  type SendMessageBatchCommandInput,
  type SendMessageBatchCommandOutput,
} from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqs } from '#lib/queue/client.ts';
import { Outbox } from '#lib/queue/outbox.ts';
import { QUEUE_URL_ENV, sendMessages } from '#lib/queue/send.ts';

// A consumer invocation's records send through one outbox (functions/consumers/*): their messages
// go out together, and each record succeeds or fails by its own messages only.

let queueUrl: string;
const savedUrl = process.env[QUEUE_URL_ENV.jobs];
const requests: SendMessageBatchCommandInput[] = [];
/** Bodies SQS is made to refuse (removed from the request and answered as failed entries). */
const refused = new Set<string>();

beforeEach(async () => {
  ({ QueueUrl: queueUrl } = (await sqs().send(new CreateQueueCommand({ QueueName: `outbox-${randomUUID()}` }))) as { QueueUrl: string });
  process.env[QUEUE_URL_ENV.jobs] = queueUrl;
  requests.length = 0;
  refused.clear();
});
afterEach(() => {
  process.env[QUEUE_URL_ENV.jobs] = savedUrl;
});

sqs().middlewareStack.add(
  (next, context) => async (args) => {
    if ((context as { commandName?: string }).commandName !== 'SendMessageBatchCommand') return next(args);
    const input = args.input as SendMessageBatchCommandInput;
    if (input.QueueUrl !== queueUrl) return next(args);
    requests.push(input);
    const entries = input.Entries ?? [];
    const refusedEntries = entries.filter((e) => refused.has(e.MessageBody!));
    const kept = entries.filter((e) => !refused.has(e.MessageBody!));
    const result =
      kept.length > 0
        ? await next({ ...args, input: { ...input, Entries: kept } })
        : { output: { Successful: [], $metadata: {} }, response: {} };
    const output = result.output as SendMessageBatchCommandOutput;
    output.Failed = [
      ...(output.Failed ?? []),
      ...refusedEntries.map((e) => ({ Id: e.Id!, Code: 'InvalidMessageContents', SenderFault: true, Message: 'refused in the test' })),
    ];
    return result;
  },
  { step: 'initialize', name: 'outboxTestSqs' },
);

async function received(count: number): Promise<string[]> {
  const bodies: string[] = [];
  const deadline = Date.now() + 10_000;
  while (bodies.length < count && Date.now() < deadline) {
    const { Messages } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    bodies.push(...(Messages ?? []).map((m) => m.Body!));
  }
  return bodies.sort();
}

const records = (n: number) => Array.from({ length: n }, (_, i) => `record-${i}`);

describe('the outbox of a consumer invocation', () => {
  it('sends the messages of ten records as one SendMessageBatch, and every one arrives', async () => {
    const outbox = new Outbox();
    await Promise.all(records(10).map((r) => outbox.run(() => sendMessages('jobs', [{ body: r }]))));
    expect(requests).toHaveLength(1);
    expect(await received(10)).toEqual(
      records(10)
        .map((r) => JSON.stringify(r))
        .sort(),
    );
  });

  it('fails only the record whose own message SQS does not take', async () => {
    refused.add(JSON.stringify('record-3'));
    const outbox = new Outbox();
    const outcomes = await Promise.allSettled(records(10).map((r) => outbox.run(() => sendMessages('jobs', [{ body: r }]))));
    expect(outcomes.map((o) => o.status)).toEqual(records(10).map((r) => (r === 'record-3' ? 'rejected' : 'fulfilled')));
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toContain('refused in the test');
    expect(await received(9)).toHaveLength(9);
  }, 20_000);

  it('does not hold the others back while one record is still busy', async () => {
    const outbox = new Outbox();
    let release!: () => void;
    const busy = outbox.run(() => new Promise<void>((resolve) => (release = resolve)).then(() => sendMessages('jobs', [{ body: 'late' }])));
    await Promise.all(records(3).map((r) => outbox.run(() => sendMessages('jobs', [{ body: r }]))));
    expect(await received(3)).toHaveLength(3);
    release();
    await busy;
    expect(await received(1)).toEqual([JSON.stringify('late')]);
  });
});
