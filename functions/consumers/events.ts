import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { queue } from '#infra/queues.ts';
import { consumeEvent } from '#lib/pipeline/consume-event.ts';
import { Outbox } from '#lib/queue/outbox.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the `events` queue, and of `bulk` (bulk.ts): fans out accepted triggers. Failed records alone go back to
// the queue (ReportBatchItemFailures); on the last receive before the dead-letter queue, a
// fan-out that still fails settles its recipients instead of vanishing (consume-event.ts).

// The same for both queues (infra/queues.ts).
const { maxReceiveCount } = queue('events');
/** Time kept back for handing the rest of a fan-out on before Lambda's timeout: a quarter of it, at most this. */
const RESERVE_MS = 8_000;

export const handler = consumerHandler('events', async (event: SQSEvent, context: Context) => {
  const remaining = context.getRemainingTimeInMillis();
  const deadline = Date.now() + remaining - Math.min(RESERVE_MS, remaining / 4);
  // The records' sends go out together (lib/queue/outbox.ts).
  const outbox = new Outbox();
  return processPartialResponse(
    event,
    (record: SQSRecord) => {
      const count = Number(record.attributes.ApproximateReceiveCount ?? 1);
      return outbox.run(() => consumeEvent(record.body, deadline, { first: count <= 1, last: count >= maxReceiveCount }));
    },
    // One processor per invocation: it holds the batch's results, and the local runtime runs
    // several batches at once in one process (a shared one mixed up their failures).
    new BatchProcessor(EventType.SQS),
    { context },
  );
});
