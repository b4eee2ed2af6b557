import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { LocalStack } from '#infra/local/stack.ts';
import { ENV } from '#lib/config.ts';
import { sqs } from '#lib/queue/client.ts';
import type { EnvScope } from '#lib/scope.ts';
import { createTestOrg, type ApiClient } from './api.ts';
import { startOwnStack } from './own-stack.ts';

// A local stack of the test file's own, with the fault layer installed (infra/local/faults.ts):
// the consumers must run where the switches are. The emulators too are this file's (own-stack.ts:
// a load file must not leave a shared DynamoDB Local busy for the next), with the table, queues,
// pollers and API. Its queues' visibility timeout is shortened so that
// redeliveries come within a test's time (the poller stays Lambda's: only the queue attribute
// differs), and the send lease with it, staying below the visibility timeout as deployed (60 s
// lease, 180 s visibility), so a redelivery after a crash still finds the lease expired.

export interface FaultStack {
  stack: LocalStack;
  client: ApiClient;
  scope: EnvScope;
  /** The pipeline's queues (events, jobs), to wait for them to drain. */
  queueUrls: string[];
  /** Messages of these transactions in the dead-letter queues (taken off them). */
  deadLetters(events: readonly { transactionId: string }[]): Promise<DeadLetter[]>;
  stop(): Promise<void>;
}

export interface DeadLetter {
  queue: string;
  messageId: string;
  body: string;
}

export async function startFaultStack({ visibilitySeconds, leaseMs }: { visibilitySeconds: number; leaseMs: number }): Promise<FaultStack> {
  process.env[ENV.sendLeaseMs] = String(leaseMs);
  const own = await startOwnStack('faults', { faults: true, visibilityTimeoutSeconds: visibilitySeconds, ownEmulators: true });
  const { stack } = own;
  const { client, scope } = (await createTestOrg(stack.apiUrl!)).dev;
  return {
    stack,
    client,
    scope,
    queueUrls: ['events', 'bulk', 'jobs'].map((q) => stack.queueUrls[q]!),
    async deadLetters(events) {
      const ours = new Set(events.map((e) => e.transactionId));
      const found: DeadLetter[] = [];
      for (const name of ['events', 'bulk', 'jobs']) {
        for (;;) {
          const { Messages } = await sqs().send(
            new ReceiveMessageCommand({
              QueueUrl: stack.queueUrls[`${name}-dlq`]!,
              MaxNumberOfMessages: 10,
              WaitTimeSeconds: 0,
              VisibilityTimeout: 30,
            }),
          );
          if (!Messages?.length) break;
          for (const m of Messages) {
            const body = JSON.parse(m.Body ?? '{}') as { transactionId?: string };
            if (body.transactionId && ours.has(body.transactionId)) found.push({ queue: name, messageId: m.MessageId!, body: m.Body! });
          }
        }
      }
      return found;
    },
    async stop() {
      await own.stop();
      delete process.env[ENV.sendLeaseMs];
    },
  };
}
