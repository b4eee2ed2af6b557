import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { consumeLive } from '#lib/live/consume.ts';
import { PushReads } from '#lib/live/push.ts';
import { Outbox } from '#lib/queue/outbox.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the `live` queue: pushes inbox changes to subscribers' open sockets and wakes
// snoozed messages when they are due. The batch's pushes to one subscriber share its sockets
// and counts (lib/live/push.ts).

export const handler = consumerHandler('live', async (event: SQSEvent, context: Context) => {
  const outbox = new Outbox();
  const reads = new PushReads();
  return processPartialResponse(
    event,
    (record: SQSRecord) => outbox.run(() => consumeLive(record.body, reads)),
    new BatchProcessor(EventType.SQS),
    { context },
  );
});
