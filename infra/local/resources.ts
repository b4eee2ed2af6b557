import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { TABLE } from '#lib/store/table.ts';
import type { QueueDef } from '../queues.ts';

// Creates the table and queues of the local stack from the same definitions the CDK stack uses.
// Both calls are safe to repeat against resources that already exist.

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  let existing: string[] | undefined;
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    existing = (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!);
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  if (existing) {
    // A table made before the stream existed gets it (NEW_AND_OLD_IMAGES, as the stack's).
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamView } }),
      );
      await untilActive(client, tableName);
    }
    // A table made by an earlier version (a DynamoDB the stack is pointed at) gets the indexes
    // added since, one per update as DynamoDB allows.
    for (const index of TABLE.indexes.filter((i) => !existing.includes(i.name))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          GlobalSecondaryIndexUpdates: [{ Create: indexDefinition(index) }],
        }),
      );
      await untilActive(client, tableName);
    }
    await ensureTimeToLive(client, tableName);
    return;
  }
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of TABLE.indexes) attributes.add(index.partitionKey).add(index.sortKey);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map(indexDefinition),
      StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamView },
    }),
  );
  await untilActive(client, tableName);
  await ensureTimeToLive(client, tableName);
}

/**
 * TTL on the table's attribute, as the stack has it (a table made before it was on gets it).
 * DynamoDB Local records the setting but never deletes anything: infra/local/ttl.ts emulates that.
 */
async function ensureTimeToLive(client: DynamoDBClient, tableName: string): Promise<void> {
  const { TimeToLiveDescription: ttl } = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl?.AttributeName === TABLE.ttlAttribute && (ttl.TimeToLiveStatus === 'ENABLED' || ttl.TimeToLiveStatus === 'ENABLING')) return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    }),
  );
}

function indexDefinition(index: (typeof TABLE.indexes)[number]) {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection:
      index.projection === 'ALL'
        ? { ProjectionType: 'ALL' as const }
        : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection] },
  };
}

/** Waits until the table and all its indexes are active. */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE' && (Table.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Creates each queue with its dead-letter queue; returns the URL of each by logical name. */
export async function ensureQueues(client: SQSClient, prefix: string, defs: readonly QueueDef[]) {
  const urls: Record<string, string> = {};
  for (const def of defs) {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${prefix}-${def.name}-dlq` }));
    const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${def.name}`,
        Attributes: {
          VisibilityTimeout: String(def.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: Attributes?.QueueArn,
            maxReceiveCount: def.maxReceiveCount,
          }),
        },
      }),
    );
    urls[def.name] = queue.QueueUrl!;
    urls[`${def.name}-dlq`] = dlq.QueueUrl!;
  }
  return urls;
}
