import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { Outbox } from '#lib/queue/outbox.ts';
import { streamChange } from '#lib/store/stream-change.ts';
import { emitChange, EmitCache } from '#lib/webhooks/emit.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the table's stream (only messages, workflows and preferences reach it: its event
// source's filter, infra/streams.ts): each stored change becomes its webhook events, queued for
// delivery (lib/webhooks/emit.ts). A record that fails is retried by Lambda from that record on.

export const handler = consumerHandler('webhook-events', async (event: DynamoDBStreamEvent, context: Context) => {
  const outbox = new Outbox();
  const cache = new EmitCache();
  return processPartialResponse(
    event,
    (record: DynamoDBRecord) => outbox.run(() => emitChange(streamChange(record), cache)),
    new BatchProcessor(EventType.DynamoDBStreams),
    { context },
  );
});
