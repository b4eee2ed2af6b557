import './env.ts';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { STAT_EVENTS } from '#lib/engagement/transitions.ts';
import { db } from '#lib/store/client.ts';
import { getItem } from '#lib/store/get-item.ts';
import { keys } from '#lib/store/keys.ts';
import { TABLE } from '#lib/store/table.ts';
import { MESSAGE_EVENTS } from '#lib/webhooks/event-types.ts';
import { startBench } from './harness.ts';
import { openSockets } from './live.ts';
import { createInAppWorkflow, endToEnd, expectStatus, messageShardQuery } from './scenarios.ts';
import { benchOrganization, seedSubscribers } from './seed.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

// What one-recipient in-app deliveries store with everything on (recipients with open sockets, an
// endpoint subscribed to `message.*`, the table's stream consumers), item by item, and the write
// units DynamoDB bills for them: each item's size by DynamoDB's rules, rounded up to 1 KB, plus
// one entry per index it is on (its keys and projected attributes, rounded up the same way), twice
// for items written in a transaction. DynamoDB Local's ConsumedCapacity leaves out what
// BatchExecuteStatement writes (the webhook attempts) and reports a fraction of what
// TransactWriteItems writes (the engagement markers), so the request meter's units undercount
// these; this counts them from the items. Every item here is written once per delivery (the
// requests per delivery say so). Run: `node --import tsx bench/delivery-items.ts` (100 deliveries).

const DELIVERIES = 100;

/** Bytes of a value by DynamoDB's item size rules (numbers: about one byte per two digits, plus one). */
function sizeOf(v: unknown): number {
  if (v === null || v === undefined || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (typeof v === 'number') return Math.ceil(String(Math.abs(v)).replace('.', '').replace(/^0+/, '').length / 2) + 1;
  if (v instanceof Set) return [...(v as Set<unknown>)].reduce<number>((s, x) => s + sizeOf(x), 0);
  if (Array.isArray(v)) return 3 + v.reduce<number>((s, x) => s + 1 + sizeOf(x), 0);
  return 3 + Object.entries(v as object).reduce((s, [k, x]) => s + 1 + Buffer.byteLength(k) + sizeOf(x), 0);
}
const itemBytes = (item: Record<string, unknown>) => Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + sizeOf(v), 0);
const units = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

interface Row {
  kind: string;
  items: number;
  bytes: number;
  itemUnits: number;
  indexEntries: number;
  indexUnits: number;
  transactional: boolean;
}

function account(rows: Map<string, Row>, kind: string, item: Record<string, unknown>, transactional = false) {
  const row = rows.get(kind) ?? { kind, items: 0, bytes: 0, itemUnits: 0, indexEntries: 0, indexUnits: 0, transactional };
  const bytes = itemBytes(item);
  row.items++;
  row.bytes += bytes;
  row.itemUnits += units(bytes);
  for (const index of TABLE.indexes) {
    if (item[index.partitionKey] === undefined || item[index.sortKey] === undefined) continue;
    const projected =
      index.projection === 'ALL'
        ? item
        : Object.fromEntries(
            [TABLE.partitionKey, TABLE.sortKey, index.partitionKey, index.sortKey, ...index.projection]
              .filter((a) => item[a] !== undefined)
              .map((a) => [a, item[a]]),
          );
    row.indexEntries++;
    row.indexUnits += units(itemBytes(projected));
  }
  rows.set(kind, row);
}

async function main() {
  const bench = await startBench({ consumerConcurrency: 4, streams: true });
  const hook = await startWebhookReceiver();
  const sockets: { close(): void }[] = [];
  try {
    const { dev } = await benchOrganization();
    const call = bench.api(dev.apiKey);
    const workflow = await createInAppWorkflow(call, 'comment-posted');
    const subscribers = await seedSubscribers(
      dev.scope,
      Array.from({ length: 50 }, (_, i) => `sub-${i}`),
    );
    const endpoint = await expectStatus(
      call('POST', '/v2/webhooks/endpoints', { url: hook.url, eventTypes: [...MESSAGE_EVENTS] }),
      201,
      'endpoint',
    );
    sockets.push(...(await openSockets(bench.stack.socketUrl!, dev, subscribers, () => {})));
    const e2e = await endToEnd(bench, dev, workflow, subscribers, { requests: DELIVERIES / 100, parallel: 1, consumerConcurrency: 4 });
    const deadline = Date.now() + 120_000;
    while (hook.posts() < 2 * DELIVERIES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await bench.idle();

    const rows = new Map<string, Row>();
    const messageKeys = (
      await Promise.all(
        keys.messagesOfEnvironment(dev.scope).map(async ({ gsi5pk }) => {
          const { Items } = await db().send(messageShardQuery(gsi5pk, { ProjectionExpression: 'pk, sk' }));
          return (Items ?? []) as { pk: string; sk: string }[];
        }),
      )
    ).flat();
    for (const key of messageKeys) {
      const message = (await getItem(key))!;
      account(rows, 'message', message);
      const transactionId = message.transactionId as string;
      const notification = await getItem(keys.notification(dev.scope, transactionId, message.subscriberId as string, 1));
      if (notification) account(rows, 'notification', notification);
      const trigger = await getItem(keys.triggerEvent(dev.scope, transactionId));
      if (trigger) account(rows, 'trigger', trigger);
      const counted = [
        ...STAT_EVENTS.map((event) => keys.engagementCounted(dev.scope, message._id as string, event)),
        ...(trigger ? [keys.engagementCounted(dev.scope, `${trigger.createdAt as string}#${transactionId}`, 'triggered')] : []),
      ];
      for (const key of counted) {
        const marker = await getItem(key);
        if (marker) account(rows, `engagement marker (${key.sk})`, marker, true);
      }
    }
    const endpointId = (endpoint.body as { _id: string })._id;
    const attempts = keys.webhookAttemptsOfEndpoint(dev.scope, endpointId);
    const { Items: attemptItems } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': attempts.pk, ':prefix': attempts.skPrefix },
      }),
    );
    for (const attempt of attemptItems ?? []) account(rows, 'webhook attempt', attempt);

    const n = messageKeys.length;
    const fmt = (x: number) => (x / n).toFixed(2);
    console.log(`${n} deliveries; the request meter counted per delivery: ${JSON.stringify(e2e.perDelivery)}`);
    console.log('item | per delivery | bytes each | item WRU | index entries | index WRU | billed WRU');
    let total = 0;
    for (const r of rows.values()) {
      const billed = (r.itemUnits + r.indexUnits) * (r.transactional ? 2 : 1);
      total += billed;
      const kind = `${r.kind}${r.transactional ? ' (transaction)' : ''}`;
      const cells = [
        kind,
        fmt(r.items),
        Math.round(r.bytes / r.items),
        fmt(r.itemUnits),
        fmt(r.indexEntries),
        fmt(r.indexUnits),
        fmt(billed),
      ];
      console.log(cells.join(' | '));
    }
    console.log(`billed WRU per delivery (these items; counter items, one per batch, left out): ${fmt(total)}`);
  } finally {
    for (const ws of sockets) ws.close();
    hook.server.close();
    await bench.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
