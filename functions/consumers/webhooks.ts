import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { Outbox } from '#lib/queue/outbox.ts';
import { InsertBatch } from '#lib/store/insert-batch.ts';
import { deliverWebhook } from '#lib/webhooks/deliver.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the `webhooks` queue: one delivery attempt of an event to a customer's endpoint per
// message (lib/webhooks/deliver.ts). The records of a batch POST at once, so a slow endpoint
// holds up only its own record; their attempts are recorded together (lib/store/insert-batch.ts).

export const handler = consumerHandler('webhooks', async (event: SQSEvent, context: Context) => {
  const outbox = new Outbox();
  const inserts = new InsertBatch();
  return processPartialResponse(
    event,
    (record: SQSRecord) => outbox.run(() => inserts.run(() => deliverWebhook(record.body))),
    new BatchProcessor(EventType.SQS),
    { context },
  );
});
