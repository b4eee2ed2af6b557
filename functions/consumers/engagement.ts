import type { DynamoDBStreamEvent } from 'aws-lambda';
import { consumeChanges } from '#lib/engagement/consume.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';
import { streamChange } from '#lib/store/stream-change.ts';

// Consumer of the table's stream for engagement (messages and triggers reach it: infra/streams.ts):
// the batch's counters and the wakes of delays waiting for engagement (lib/engagement/consume.ts).
// The batch is one unit: should it fail, Lambda hands it over again and the counters' markers keep
// every count single.

export const handler = consumerHandler('engagement', async (event: DynamoDBStreamEvent) => {
  await consumeChanges(event.Records.map(streamChange));
  return { batchItemFailures: [] };
});
