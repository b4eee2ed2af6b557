import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { messageFromItem, messageItem } from '#lib/messages/repository.ts';
import type { StoredNotification, TriggerEvent } from '#lib/pipeline/model.ts';
import { getNotification, notificationItem } from '#lib/pipeline/notification-store.ts';
import { getTriggerEvent, triggerEventItem } from '#lib/pipeline/trigger-store.ts';
import { db } from '#lib/store/client.ts';
import { getItem } from '#lib/store/get-item.ts';
import { keys } from '#lib/store/keys.ts';
import { timedAlone, type AloneRate } from './alone.ts';
import { rawDocumentClient } from './own-client.ts';
import { messageShardQuery } from './scenarios.ts';
import type { BenchEnv } from './seed.ts';

// The writes of one-step in-app deliveries, replayed with nothing around them: what DynamoDB Local
// and the SDK alone take for the items a delivery really writes (a trigger event in a 25-item
// BatchWriteItem, a conditional Put of the notification, a conditional Put of the message). The
// floor of section 1 writes 700-byte items with no index; these carry their index entries and
// conditions. Its deliveries per second bound any pipeline that writes these items, so
// end to end ÷ this says how much the pipeline adds around its writes, and this ÷ the floor
// deliveries says how much of the floor ratio the items leave. The items are built by the
// repositories' own item builders, so they follow the data model. The caller stops the stream
// consumers meanwhile (Bench.withoutStreamConsumers): they would read and count every replayed
// item while the writes are timed, and the rate would be theirs as much as the writes'.

const BATCH = 25;

export interface DeliveryWrites {
  event: TriggerEvent;
  notification: StoredNotification;
  message: StoredMessage;
}

/** One delivery as the pipeline stored it: the newest message of `env`, its notification and trigger. */
export async function sampleDeliveryWrites(env: BenchEnv): Promise<DeliveryWrites> {
  // The newest entry of each shard of the message list; the newest of those.
  const newest = await Promise.all(
    keys.messagesOfEnvironment(env.scope).map(async ({ gsi5pk }) => {
      const { Items } = await db().send(messageShardQuery(gsi5pk, { ScanIndexForward: false, Limit: 1 }));
      return Items?.[0] as { pk: string; sk: string; _id: string } | undefined;
    }),
  );
  // Index entries hold the message's table key, not its subscriber: read it by that key.
  const entry = newest.reduce<(typeof newest)[number]>((a, b) => (b && (!a || b._id > a._id) ? b : a), undefined);
  const item = entry && (await getItem({ pk: entry.pk, sk: entry.sk }));
  const message = item && messageFromItem(item);
  const event = message && (await getTriggerEvent(env.scope, message.transactionId));
  const notification = message && event && (await getNotification(env.scope, { ...message, notificationShards: event.notificationShards }));
  if (!message || !event || !notification) throw new Error('write bound: no delivery to sample');
  return { event, notification: notification.notification, message };
}

/** The sample's items under new ids, in an environment of their own. */
export function replayItems(sample: DeliveryWrites, scope: { _organizationId: string; _environmentId: string }, subscriberId: string) {
  const transactionId = `replay-${newId()}`;
  const notificationId = newId();
  const ids = { ...scope, transactionId, subscriberId };
  return {
    event: triggerEventItem({ ...sample.event, ...scope, transactionId }),
    notification: notificationItem({ ...sample.notification, ...ids, _id: notificationId }, 1),
    message: messageItem({ ...sample.message, ...ids, _id: newId(), _notificationId: notificationId }),
  };
}

/**
 * Deliveries per second when only their writes run: `deliveries` of them, 32 requests in flight,
 * from a client of its own (not counted with the service's requests).
 */
export async function replayDeliveryWrites(
  sample: DeliveryWrites,
  options: { deliveries: number; subscribers: number; transform?: (item: Record<string, unknown>) => Record<string, unknown> },
): Promise<AloneRate> {
  const as = options.transform ?? ((item: Record<string, unknown>) => item);
  const client = rawDocumentClient();
  const TableName = tableName();
  const scope = { _organizationId: `replay-${newId()}`, _environmentId: newId() };
  const conditional = { TableName, ConditionExpression: 'attribute_not_exists(pk)' };
  const writesOf = (from: number, count: number): (() => Promise<unknown>)[] => {
    const items = Array.from({ length: count }, (_, i) => replayItems(sample, scope, `replay-sub-${(from + i) % options.subscribers}`));
    // In the order a bulk trigger and its consumer write them: each batch of events, then their
    // deliveries' message and notification.
    const writes: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < items.length; i += BATCH) {
      const group = items.slice(i, i + BATCH);
      const events = group.map((d) => ({ PutRequest: { Item: as(d.event) } }));
      writes.push(async () => {
        const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [TableName]: events } }));
        if (Object.keys(UnprocessedItems ?? {}).length > 0) throw new Error('write bound: DynamoDB Local left items unprocessed');
      });
      for (const d of group) {
        writes.push(() => client.send(new PutCommand({ ...conditional, Item: as(d.message) })));
        writes.push(() => client.send(new PutCommand({ ...conditional, Item: as(d.notification) })));
      }
    }
    return writes;
  };
  // Warm the JVM's paths for these items first.
  await timedAlone(writesOf(0, 200));
  return timedAlone(writesOf(200, options.deliveries), options.deliveries);
}
