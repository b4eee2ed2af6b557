import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { keys } from '../store/keys.ts';
import { queryPage } from '../store/query-pages.ts';
import type { QueueName } from './send-batch.ts';
import type { Wake, WakeScheduler } from './wake.ts';

// Long waits in the local runtime: each wake is an item of the table, sorted by due time under
// one key, that the local runtime's poller (infra/local/wake-poller.ts) queries when due, sends
// to its queue and deletes, as EventBridge Scheduler does in AWS. Kept in the table, so a
// restart of `npm start` loses no wait.

export interface StoredWake {
  pk: string;
  sk: string;
  queue: QueueName;
  body: unknown;
}

export class TableWakeScheduler implements WakeScheduler {
  async schedule(wake: Wake): Promise<void> {
    const key = keys.localWake(wake.at.toISOString(), wake.name);
    // A wake of that name is already there: scheduled by an earlier run of the same decision.
    await writeIf(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, type: 'Wake', queue: wake.queue, body: wake.body },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }
}

/** Up to `limit` wakes due at `now`, the earliest first. */
export async function dueWakes(now: Date, limit: number): Promise<StoredWake[]> {
  const { pk, skTo } = keys.localWakesDue(now.toISOString());
  const { items } = await queryPage({
    KeyConditionExpression: 'pk = :pk AND sk <= :to',
    ExpressionAttributeValues: { ':pk': pk, ':to': skTo },
    ConsistentRead: true,
    Limit: limit,
  });
  return items as unknown as StoredWake[];
}

/** The wake has fired (its message is on its queue). */
export async function removeWake(wake: Pick<StoredWake, 'pk' | 'sk'>): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: wake.pk, sk: wake.sk } }));
}
