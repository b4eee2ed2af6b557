import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { queryPages } from '../store/query-pages.ts';
import { tableName } from '../config.ts';
import { batchDelete } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';

// Deleting a subscriber deletes its whole partition: profile, preferences, counters, messages.
// The profile goes last, so a delete that fails midway leaves a subscriber that a retried
// DELETE still finds and finishes, never orphaned items under a missing profile.

export async function deleteSubscriberPartition(scope: EnvScope, subscriberId: string): Promise<void> {
  const { pk } = keys.subscriberPartition(scope, subscriberId);
  const profile = keys.subscriber(scope, subscriberId);
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'pk, sk',
  });
  for await (const page of pages) {
    await batchDelete(page.map((i) => ({ pk: i.pk as string, sk: i.sk as string })).filter((k) => k.sk !== profile.sk));
  }
  await db().send(new DeleteCommand({ TableName: tableName(), Key: profile }));
}
