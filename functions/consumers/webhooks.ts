import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { Outbox } from '#lib/queue/outbox.ts';
import { deliverWebhook } from '#lib/webhooks/deliver.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the `webhooks` queue: one delivery attempt of an event to a customer's endpoint per
// message (lib/webhooks/deliver.ts). The records of a batch POST at once, so a slow endpoint
// holds up only its own record.

export const handler = consumerHandler('webhooks', async (event: SQSEvent, context: Context) => {
  const outbox = new Outbox();
  return processPartialResponse(
    event,
    (record: SQSRecord) => outbox.run(() => deliverWebhook(record.body)),
    new BatchProcessor(EventType.SQS),
    { context },
  );
});
