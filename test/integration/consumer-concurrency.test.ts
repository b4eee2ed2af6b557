import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as eventsConsumer } from '#functions/consumers/events.ts';
import { handler as jobsConsumer } from '#functions/consumers/jobs.ts';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { eventMessage, jobMessage } from '#lib/pipeline/queue-messages.ts';

// The local runtime runs several batches of a consumer at once in one process (Lambda would use
// several instances). Each invocation must report its own failed records: found by the fault
// tests, a batch processor shared by the module's invocations lost failures to each other, so
// failed messages were deleted.

const scope = { organizationId: 'org-concurrency', environmentId: 'env-concurrency' };
/** A key DynamoDB refuses (over 2 KB): reading it fails, so the record fails. */
const failing = 'x'.repeat(3000);

function batch(bodies: unknown[]): SQSEvent {
  return {
    Records: bodies.map((body) => ({
      messageId: randomUUID(),
      receiptHandle: randomUUID(),
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1' } as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:local',
      awsRegion: 'us-east-1',
    })),
  };
}

const failedIds = (response: SQSBatchResponse) => response.batchItemFailures.map((f) => f.itemIdentifier).sort();

describe.each([
  ['jobs', jobsConsumer, (tx: string) => jobMessage(scope, tx, 'sub', 0)],
  ['events', eventsConsumer, (tx: string) => eventMessage(scope, tx)],
] as const)('the %s consumer, several batches at once', (_name, consumer, message) => {
  it('reports each batch its own failed records', async () => {
    for (let round = 0; round < 5; round++) {
      const batches = [0, 1, 2, 3].map((b) => batch([0, 1, 2, 3].map((i) => message(i === b ? failing : `tx-${randomUUID()}`))));
      const responses = (await Promise.all(batches.map((e) => consumer(e, lambdaContext('consumer'))))) as SQSBatchResponse[];
      responses.forEach((response, b) => expect(failedIds(response)).toEqual([batches[b]!.Records[b]!.messageId]));
    }
  });
});
