import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { queue } from '#infra/queues.ts';
import { logger } from '#lib/logger.ts';
import { consumeJob } from '#lib/pipeline/consume-job.ts';

// Consumer of the `jobs` queue: runs pipeline jobs. On the last receive before the dead-letter
// queue, a job that still fails is recorded as failed with its reason instead of vanishing.

const processor = new BatchProcessor(EventType.SQS);
const { maxReceiveCount } = queue('jobs');

export async function handler(event: SQSEvent, context: Context) {
  logger.addContext(context);
  return processPartialResponse(
    event,
    (record: SQSRecord) => consumeJob(record.body, Number(record.attributes.ApproximateReceiveCount ?? 1) >= maxReceiveCount),
    processor,
    { context },
  );
}
