import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable } from '#infra/local/resources.ts';
import { newId } from '#lib/ids.ts';
import { dynamo } from '#lib/store/client.ts';
import { TABLE } from '#lib/store/table.ts';

// The local stack's table when the DynamoDB it is pointed at already has one from an earlier
// version: it gets the indexes added since, so the reads that use them work.

const tableName = `notify-old-${newId().slice(-8)}`;
afterAll(() =>
  dynamo()
    .send(new DeleteTableCommand({ TableName: tableName }))
    .catch(() => undefined),
);

describe('ensureTable', () => {
  it('adds the indexes and the TTL a table made by an earlier version lacks, and is then a no-op', async () => {
    const first = TABLE.indexes[0];
    await dynamo().send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', first.partitionKey, first.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: first.name,
            KeySchema: [
              { AttributeName: first.partitionKey, KeyType: 'HASH' },
              { AttributeName: first.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    await ensureTable(dynamo(), tableName);
    const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: tableName }));
    const indexes = new Map((Table?.GlobalSecondaryIndexes ?? []).map((i) => [i.IndexName!, i]));
    expect([...indexes.keys()].sort()).toEqual(TABLE.indexes.map((i) => i.name).sort());
    const messages = indexes.get('gsi5')!;
    expect(messages.Projection?.ProjectionType).toBe('INCLUDE');
    expect(messages.IndexStatus).toBe('ACTIVE');

    // Expired items are deleted by TTL on the same attribute as the stack's (docs/data-model.md).
    const { TimeToLiveDescription } = await dynamo().send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    expect(TimeToLiveDescription).toEqual({ AttributeName: TABLE.ttlAttribute, TimeToLiveStatus: 'ENABLED' });

    await ensureTable(dynamo(), tableName);
    const again = await dynamo().send(new DescribeTableCommand({ TableName: tableName }));
    expect(again.Table?.GlobalSecondaryIndexes).toHaveLength(TABLE.indexes.length);
  });
});
