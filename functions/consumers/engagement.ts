import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { consumeChanges, type KeyedChange } from '#lib/engagement/consume.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';
import { TTL_DELETION_IDENTITY } from '#lib/store/retention.ts';

// Consumer of the table's stream for engagement (messages and triggers reach it: infra/streams.ts):
// the batch's counters and the wakes of delays waiting for engagement (lib/engagement/consume.ts).
// The batch is one unit: should it fail, Lambda hands it over again and the counters' markers keep
// every count single.

type Image = Record<string, AttributeValue> | undefined;
const item = (image: Image) => (image ? (unmarshall(image as Parameters<typeof unmarshall>[0]) as Record<string, unknown>) : undefined);

function changeOf(record: DynamoDBRecord): KeyedChange {
  const { dynamodb } = record;
  const before = item(dynamodb?.OldImage);
  const after = item(dynamodb?.NewImage);
  return {
    pk: dynamodb?.Keys?.pk?.S ?? '',
    sk: dynamodb?.Keys?.sk?.S ?? '',
    ...(before && { before }),
    ...(after && { after }),
    expired:
      record.userIdentity?.type === TTL_DELETION_IDENTITY.type && record.userIdentity?.principalId === TTL_DELETION_IDENTITY.principalId,
  };
}

export const handler = consumerHandler('engagement', async (event: DynamoDBStreamEvent) => {
  await consumeChanges(event.Records.map(changeOf));
  return { batchItemFailures: [] };
});
