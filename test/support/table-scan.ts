import { ScanCommand, type ScanCommandInput, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';

// Every item of the test table, page after page. Tests only: they check the whole table for what
// no access pattern of the service would show (secrets in plaintext, every item of a run). The
// service itself never scans.

export type ScanFilter = Pick<ScanCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>;

export async function* scanTable(filter: ScanFilter = {}): AsyncGenerator<Record<string, any>> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db().send(
      new ScanCommand({ TableName: tableName(), ...filter, ...(ExclusiveStartKey && { ExclusiveStartKey }) }),
    );
    yield* page.Items ?? [];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
