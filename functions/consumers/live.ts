import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { consumeLive } from '#lib/live/consume.ts';
import { Outbox } from '#lib/queue/outbox.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the `live` queue: pushes inbox changes to subscribers' open sockets and wakes
// snoozed messages when they are due.

export const handler = consumerHandler('live', async (event: SQSEvent, context: Context) => {
  const outbox = new Outbox();
  return processPartialResponse(
    event,
    (record: SQSRecord) => outbox.run(() => consumeLive(record.body)),
    new BatchProcessor(EventType.SQS),
    { context },
  );
});
