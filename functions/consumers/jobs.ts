import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { queue } from '#infra/queues.ts';
import { consumeJob } from '#lib/pipeline/consume-job.ts';
import { Outbox } from '#lib/queue/outbox.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the `jobs` queue: runs pipeline jobs. On the last receive before the dead-letter
// queue, a job that still fails is recorded as failed with its reason instead of vanishing.

const { maxReceiveCount } = queue('jobs');

export const handler = consumerHandler('jobs', async (event: SQSEvent, context: Context) => {
  // The records' sends go out together (lib/queue/outbox.ts).
  const outbox = new Outbox();
  return processPartialResponse(
    event,
    (record: SQSRecord) =>
      outbox.run(() => consumeJob(record.body, Number(record.attributes.ApproximateReceiveCount ?? 1) >= maxReceiveCount)),
    // One processor per invocation: it holds the batch's results, and the local runtime runs
    // several batches at once in one process (a shared one mixed up their failures).
    new BatchProcessor(EventType.SQS),
    { context },
  );
});
