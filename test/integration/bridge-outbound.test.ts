import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { z } from 'zod/v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as outboundConsumer } from '#functions/consumers/outbound.ts';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { ENV } from '#lib/config.ts';
import { sqs } from '#lib/queue/client.ts';
import { createTestOrg, type TestEnv } from '../support/api.ts';
import { startBridgeApp, workflow, type BridgeApp } from '../support/bridge-app.ts';
import { startOwnStack, type OwnStack } from '../support/own-stack.ts';

// The API never calls a customer's bridge itself: its bridge routes put the call on the
// `outbound` queue and wait for the outbound consumer's answer (lib/bridge/outbound-*.ts). Here the stack
// runs with no consumer polling its queues, so nothing but this test can answer: a sync left
// alone waits, then answers 504 and the bridge saw nothing; the same request handed to the
// consumer while the sync waits is called, and the sync completes with the bridge's workflows.

let own: OwnStack;
let env: TestEnv;
let bridge: BridgeApp;

const hello = workflow('hello-flow', async ({ step }) => {
  await step.inApp('greet', async (controls) => ({ body: controls.greeting }), {
    controlSchema: z.object({ greeting: z.string().default('Hello') }),
  });
});

beforeAll(async () => {
  own = await startOwnStack('outbound', { consumers: false });
  env = (await createTestOrg(own.stack.apiUrl!)).dev;
  bridge = await startBridgeApp(env.apiKey, [hello]);
}, 120_000);
afterAll(async () => {
  await bridge?.close();
  await own?.stop();
  delete process.env[ENV.outboundAnswerWaitMs];
});

/** The messages waiting on the outbound queue (received: hidden from others for the visibility timeout). */
async function receiveOutbound(): Promise<SQSEvent> {
  const { Messages = [] } = await sqs().send(
    new ReceiveMessageCommand({ QueueUrl: own.stack.queueUrls.outbound, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }),
  );
  return {
    Records: Messages.map((m) => ({
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: { ApproximateReceiveCount: '1' } as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'outbound',
      awsRegion: 'us-east-1',
    })),
  };
}

describe('bridge calls from the API', () => {
  it('wait for the outbound consumer: unanswered, a sync is a 504 and the bridge is not called', async () => {
    process.env[ENV.outboundAnswerWaitMs] = '3000';
    const started = Date.now();
    const res = await env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ statusCode: 504, path: '/v1/bridge/sync?source=cli' });
    expect(res.body.message).toMatch(/not answered within 3 s/);
    expect(bridge.calls).toEqual([]);

    // The request is on the queue; handed to the consumer now that no one waits, it is dropped uncalled.
    const late = await receiveOutbound();
    expect(late.Records).toHaveLength(1);
    expect(JSON.parse(late.Records[0]!.body)).toMatchObject({ bridge: { url: bridge.url, action: 'discover', signed: true } });
    expect(late.Records[0]!.body).not.toContain(env.apiKey);
    await outboundConsumer(late, lambdaContext('outbound'));
    expect(bridge.calls).toEqual([]);
  });

  it('answer with what the outbound consumer got from the bridge', async () => {
    process.env[ENV.outboundAnswerWaitMs] = '15000';
    const sync = env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
    const request = await receiveOutbound();
    expect(request.Records).toHaveLength(1);
    expect(bridge.calls).toEqual([]);
    await outboundConsumer(request, lambdaContext('outbound'));
    expect(bridge.calls).toEqual([expect.objectContaining({ action: 'discover', status: 200, signed: true })]);

    const res = await sync;
    expect(res.status).toBe(201);
    expect(res.body.data.map((w: { workflowId: string }) => w.workflowId)).toEqual(['hello-flow']);
  });
});
