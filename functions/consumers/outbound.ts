import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';
import { answerOutboundRequest } from '#lib/bridge/outbound-answer.ts';

// Consumer of the `outbound` queue: the calls to customers' URLs whose answers API handlers wait
// for (lib/bridge/outbound-*.ts). The records of a batch call at once, so a slow bridge holds up only its own.

export const handler = consumerHandler('outbound', async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, (record: SQSRecord) => answerOutboundRequest(record.body), new BatchProcessor(EventType.SQS), {
    context,
  }),
);
