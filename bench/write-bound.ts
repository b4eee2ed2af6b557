import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { newId, timeOfId } from '#lib/ids.ts';
import { mapConcurrently } from '#lib/store/concurrency.ts';
import { keys, type EnvScope } from '#lib/store/keys.ts';
import { rawDocumentClient } from './floor.ts';
import type { BenchEnv } from './seed.ts';

// The writes of one-step in-app deliveries, replayed with nothing around them: what DynamoDB Local
// and the SDK alone take for the items a delivery really writes (a trigger event in a 25-item
// BatchWriteItem, a conditional Put of the notification, a conditional Put of the message). The
// floor of section 1 writes 700-byte items with no index; these carry their index entries and
// conditions. Its deliveries per second bound any pipeline that writes these items, so
// end to end ÷ this says how much the pipeline adds around its writes, and this ÷ the floor
// deliveries says how much of the floor ratio the items leave.

const BATCH = 25;
const IN_FLIGHT = 32;

export interface DeliveryWrites {
  event: Record<string, unknown>;
  notification: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** One delivery's items as the pipeline stored them: a message of `env`, its notification and trigger. */
export async function sampleDeliveryWrites(env: BenchEnv): Promise<DeliveryWrites> {
  // Read with the bench's own client too, so these reads stay out of the service's counts.
  const client = rawDocumentClient();
  const TableName = tableName();
  const listed = await client.send(
    new QueryCommand({
      TableName,
      IndexName: 'gsi5',
      KeyConditionExpression: 'gsi5pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.messagesOfEnvironment(env.scope).gsi5pk },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const entry = listed.Items?.[0];
  if (!entry) throw new Error('write bound: no message to sample');
  const get = async (key: { pk: unknown; sk: unknown }) => {
    const { Item } = await client.send(new GetCommand({ TableName, Key: key }));
    if (!Item) throw new Error(`write bound: ${JSON.stringify(key)} not found`);
    return Item;
  };
  const message = await get({ pk: entry.pk, sk: entry.sk });
  const { transactionId, subscriberId } = message as { transactionId: string; subscriberId: string };
  return {
    event: await get(keys.triggerEvent(env.scope, transactionId)),
    notification: await get(keys.notification(env.scope, transactionId, subscriberId)),
    message,
  };
}

/** The sample's items under new ids in a scope of their own, keyed as the repositories key them. */
function replayItems(sample: DeliveryWrites, scope: EnvScope, index: number, subscribers: number): DeliveryWrites {
  const transactionId = `replay-${newId()}`;
  const subscriberId = `replay-sub-${index % subscribers}`;
  const notificationId = newId();
  const messageId = newId();
  return {
    event: { ...sample.event, ...keys.triggerEvent(scope, transactionId), transactionId },
    notification: {
      ...sample.notification,
      ...keys.notification(scope, transactionId, subscriberId),
      ...keys.activityDayIndex(scope, timeOfId(notificationId).toISOString().slice(0, 10), notificationId),
      ...keys.activityOfSubscriberIndex(scope, subscriberId, notificationId),
      _id: notificationId,
      transactionId,
      subscriberId,
    },
    message: {
      ...sample.message,
      ...keys.message(scope, subscriberId, messageId),
      ...keys.messageListIndex(scope, messageId),
      ...keys.unseenMessageIndex(scope, subscriberId, messageId),
      _id: messageId,
      transactionId,
      subscriberId,
      _notificationId: notificationId,
    },
  };
}

/**
 * Deliveries per second when only their writes run: `deliveries` of them, 32 requests in flight,
 * from a client of its own (not counted with the service's requests).
 */
export async function replayDeliveryWrites(sample: DeliveryWrites, options: { deliveries: number; subscribers: number }): Promise<number> {
  const client = rawDocumentClient();
  const TableName = tableName();
  const scope: EnvScope = { organizationId: `replay-${newId()}`, environmentId: newId() };
  const conditional = { TableName, ConditionExpression: 'attribute_not_exists(pk)' };
  const writesOf = (from: number, count: number): (() => Promise<unknown>)[] => {
    const items = Array.from({ length: count }, (_, i) => replayItems(sample, scope, from + i, options.subscribers));
    // In the order a bulk trigger and its consumer write them: each batch of events, then their
    // deliveries' message and notification.
    const writes: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < items.length; i += BATCH) {
      const group = items.slice(i, i + BATCH);
      const events = group.map((d) => ({ PutRequest: { Item: d.event } }));
      writes.push(async () => {
        const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [TableName]: events } }));
        if (Object.keys(UnprocessedItems ?? {}).length > 0) throw new Error('write bound: DynamoDB Local left items unprocessed');
      });
      for (const d of group) {
        writes.push(() => client.send(new PutCommand({ ...conditional, Item: d.message })));
        writes.push(() => client.send(new PutCommand({ ...conditional, Item: d.notification })));
      }
    }
    return writes;
  };
  // Warm the JVM's paths for these items first.
  await mapConcurrently(writesOf(0, 200), IN_FLIGHT, (write) => write());
  const writes = writesOf(200, options.deliveries);
  const started = performance.now();
  await mapConcurrently(writes, IN_FLIGHT, (write) => write());
  return options.deliveries / ((performance.now() - started) / 1000);
}
