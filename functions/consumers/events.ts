import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { consumeEvent } from '#lib/pipeline/consume-event.ts';

// Consumer of the `events` queue: fans out accepted triggers. Failed records alone go back to
// the queue (ReportBatchItemFailures).

const processor = new BatchProcessor(EventType.SQS);
/** Time kept back for handing the rest of a fan-out on before Lambda's timeout. */
const RESERVE_MS = 8_000;

export async function handler(event: SQSEvent, context: Context) {
  logger.addContext(context);
  const deadline = Date.now() + Math.max(1_000, context.getRemainingTimeInMillis() - RESERVE_MS);
  return processPartialResponse(event, (record: SQSRecord) => consumeEvent(record.body, deadline), processor, { context });
}
