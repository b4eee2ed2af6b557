import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { Outbox } from '#lib/queue/outbox.ts';
import { TTL_DELETION_IDENTITY } from '#lib/store/retention.ts';
import { emitChange, EmitCache, type ChangeRecord } from '#lib/webhooks/emit.ts';
import { consumerHandler } from '#lib/observability/consumer-handler.ts';

// Consumer of the table's stream (only messages, workflows and preferences reach it: its event
// source's filter, infra/streams.ts): each stored change becomes its webhook events, queued for
// delivery (lib/webhooks/emit.ts). A record that fails is retried by Lambda from that record on.

type Image = Record<string, AttributeValue> | undefined;
const item = (image: Image) => (image ? (unmarshall(image as Parameters<typeof unmarshall>[0]) as Record<string, unknown>) : undefined);

function changeOf(record: DynamoDBRecord): ChangeRecord {
  const { dynamodb } = record;
  const before = item(dynamodb?.OldImage);
  const after = item(dynamodb?.NewImage);
  return {
    changeId: record.eventID ?? dynamodb?.SequenceNumber ?? '',
    pk: dynamodb?.Keys?.pk?.S ?? '',
    sk: dynamodb?.Keys?.sk?.S ?? '',
    ...(before && { before }),
    ...(after && { after }),
    // DynamoDB's TTL deletes carry its service principal.
    expired:
      record.userIdentity?.type === TTL_DELETION_IDENTITY.type && record.userIdentity?.principalId === TTL_DELETION_IDENTITY.principalId,
    at: (dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000,
  };
}

export const handler = consumerHandler('webhook-events', async (event: DynamoDBStreamEvent, context: Context) => {
  const outbox = new Outbox();
  const cache = new EmitCache();
  return processPartialResponse(
    event,
    (record: DynamoDBRecord) => outbox.run(() => emitChange(changeOf(record), cache)),
    new BatchProcessor(EventType.DynamoDBStreams),
    { context },
  );
});
