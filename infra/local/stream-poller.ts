import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { withoutSdkLogging } from '#lib/sdk-logging.ts';
import { sdkCallBounds } from '#lib/sdk-timeouts.ts';
import { CACHED_MIDDLEWARE } from '#lib/sdk-middleware-cache.ts';
import { passesFilter, STREAM_RETRY_ATTEMPTS, type StreamConsumerDef } from '../streams.ts';
import type { AnyHandler } from './handlers.ts';
import { lambdaContext } from './lambda-context.ts';
import { asTtlDeletion } from './ttl.ts';

// Drives the consumers of a table's stream as Lambda's DynamoDB event source mappings do: each
// shard read in order, only records passing a consumer's filter handed to it, in batches;
// `batchItemFailures` (or a throw) retry the batch from the first failed record. As the stack's
// mapping (bisectBatchOnError), a batch of several records that fails is split in two and each
// half handed over in turn, so a record that keeps failing holds back only itself; a single record
// is retried up to STREAM_RETRY_ATTEMPTS times (the stack's retryAttempts), then logged and
// skipped as Lambda would after its retries. Shards open at start are read from their end (a
// table the stack is pointed at again does not replay its day of history); shards that appear
// later (a split, a rotation) from their start. Deletions of expired items (DynamoDB Local has no TTL: ./ttl.ts emulates it)
// reach consumers as DynamoDB's own: a REMOVE record with the service principal.
//
// In AWS each mapping reads the shard itself. Here one reader per shard serves every consumer:
// the one emulator pays for a read by the records it returns (about a quarter of its CPU in the
// integration tests went to stream reads, each record read once per consumer), so each record is
// read once and queued to each consumer whose filter it passes. Each consumer drains its own
// queue, so one that retries or runs slowly holds back only itself (the reader pauses while any
// queue is long). An idle shard is read four times a second, as Lambda polls a stream's shards.

export const STREAM_IDLE_MS = 250;
const DESCRIBE_EVERY_MS = 2000;
const RETRY_READ_MS = 500;
/** Records a consumer may have waiting before the shard's reader pauses for it. */
const MAX_QUEUED_RECORDS = 5000;
const QUEUE_FULL_WAIT_MS = 50;

export interface StreamPoller {
  stop(): Promise<void>;
}

export interface StreamConsumer {
  def: StreamConsumerDef;
  handler: AnyHandler;
  onError?: (error: unknown) => void;
  /** Retries of a failing record (default: the deployed mapping's). */
  retryAttempts?: number;
}

/** One consumer's records of one shard, waiting to be handed over in order. */
interface Lane {
  consumer: StreamConsumer;
  queued: DynamoDBRecord[];
  /** Its shard is closed and read to its end: the lane ends once its queue is handed over. */
  closed: boolean;
  wake?: () => void;
}

export async function startStreamPoller(options: {
  dynamo: DynamoDBClient;
  endpoint?: string;
  tableName: string;
  consumers: readonly StreamConsumer[];
}): Promise<StreamPoller> {
  const { consumers } = options;
  const { Table } = await options.dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
  const client = withoutSdkLogging(
    new DynamoDBStreamsClient({
      ...sdkCallBounds(),
      ...CACHED_MIDDLEWARE,
      ...(options.endpoint && { endpoint: options.endpoint }),
    }),
  );
  // Errors of reading the shard itself, not of one consumer: each consumer hears of them.
  const readError = (error: unknown) => consumers.forEach((c) => c.onError?.(error));
  let running = true;
  const started = new Set<string>();
  const readers: Promise<void>[] = [];
  const wake = (lane: Lane) => {
    lane.wake?.();
    lane.wake = undefined;
  };

  const invoke = async ({ def, handler, onError }: StreamConsumer, records: DynamoDBRecord[]): Promise<number> => {
    // The index of the first record that failed, or records.length when all went through.
    try {
      const result = (await handler({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext(`${def.name}-consumer`))) as
        DynamoDBBatchResponse | undefined;
      const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      const first = records.findIndex((r) => failed.has(r.dynamodb?.SequenceNumber ?? ''));
      return first === -1 ? records.length : first;
    } catch (error) {
      onError?.(error);
      return 0;
    }
  };

  const deliver = async (consumer: StreamConsumer, records: DynamoDBRecord[]): Promise<void> => {
    const retryAttempts = consumer.retryAttempts ?? STREAM_RETRY_ATTEMPTS;
    let rest = records;
    for (let attempt = 0; rest.length > 0 && running; attempt++) {
      const done = await invoke(consumer, rest);
      rest = rest.slice(done);
      if (rest.length === 0) return;
      if (rest.length > 1) {
        const half = Math.ceil(rest.length / 2);
        await deliver(consumer, rest.slice(0, half));
        await deliver(consumer, rest.slice(half));
        return;
      }
      if (attempt >= retryAttempts) {
        consumer.onError?.(new Error(`${consumer.def.name}: skipped ${rest.length} stream record(s) after ${retryAttempts} retries`));
        return;
      }
      await sleep(Math.min(2000, 50 * 2 ** attempt));
    }
  };

  const drain = async (lane: Lane): Promise<void> => {
    while (running) {
      if (lane.queued.length > 0) await deliver(lane.consumer, lane.queued.splice(0, lane.consumer.def.batchSize));
      else if (lane.closed) break;
      else await new Promise<void>((resolve) => (lane.wake = resolve));
    }
  };

  // A failed read (the emulator busy, a connection dropped) resumes after the last record read,
  // so one error never stops a shard's records for the rest of the run. `positioned` is called
  // once the shard's first iterator is held: from then on no record of it is missed.
  const readShard = async (shardId: string, from: 'LATEST' | 'TRIM_HORIZON', positioned?: () => void) => {
    const shardLanes: Lane[] = consumers.map((consumer) => ({ consumer, queued: [], closed: false }));
    const drains = shardLanes.map(drain);
    let after: string | undefined;
    while (running) {
      try {
        const position = after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: after }
          : { ShardIteratorType: from };
        let { ShardIterator: iterator } = await client.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...position }),
        );
        positioned?.();
        while (running && iterator) {
          const { Records = [], NextShardIterator } = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
          for (const raw of Records) {
            const sk = raw.dynamodb?.Keys?.sk?.S ?? '';
            const takers = shardLanes.filter((lane) => passesFilter(lane.consumer.def, sk));
            // Built once and handed to each consumer that takes it: consumers read records, never change them.
            const record = takers.length > 0 ? asTtlDeletion(lambdaRecord(raw)) : undefined;
            if (record) for (const lane of takers) lane.queued.push(record);
          }
          shardLanes.filter((lane) => lane.queued.length > 0).forEach(wake);
          after = Records.at(-1)?.dynamodb?.SequenceNumber ?? after;
          iterator = NextShardIterator;
          if (Records.length === 0) await sleep(STREAM_IDLE_MS);
          while (running && shardLanes.some((lane) => lane.queued.length > MAX_QUEUED_RECORDS)) await sleep(QUEUE_FULL_WAIT_MS);
        }
        break; // the shard is closed and read to its end (or the poller stopped)
      } catch (error) {
        if (!running) break;
        readError(error);
        await sleep(RETRY_READ_MS);
      }
    }
    // A closed shard's queued records are still handed over; on stop the drains end at once.
    for (const lane of shardLanes) {
      lane.closed = true;
      wake(lane);
    }
    await Promise.all(drains);
  };

  const discover = async (initial: boolean) => {
    const { StreamDescription } = await client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const positions: Promise<void>[] = [];
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (started.has(id)) continue;
      started.add(id);
      // At start only the open shards matter (closed ones hold history); later, a new shard is read whole.
      if (initial && shard.SequenceNumberRange?.EndingSequenceNumber) continue;
      positions.push(
        new Promise((resolve) => {
          // Resolved when positioned, or when the reader ends first (the poller stopped).
          readers.push(readShard(id, initial ? 'LATEST' : 'TRIM_HORIZON', resolve).finally(resolve));
        }),
      );
    }
    return Promise.all(positions);
  };
  // Started means positioned: a change stored once this returns reaches the consumer (read from
  // `LATEST`, a shard whose iterator came after a write would skip it).
  await discover(true);
  const watcher = (async () => {
    while (running) {
      await sleep(DESCRIBE_EVERY_MS);
      if (running) await discover(false).catch(readError);
    }
  })();

  return {
    stop: async () => {
      running = false;
      await Promise.allSettled([watcher, ...readers]);
      client.destroy();
    },
  };
}

/** A record as Lambda hands it over: its time in epoch seconds, its images whole. */
function lambdaRecord(record: StreamRecord): DynamoDBRecord {
  const { dynamodb, ...rest } = record;
  const at = dynamodb?.ApproximateCreationDateTime;
  return {
    ...rest,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ...dynamodb,
      ...(dynamodb?.NewImage && { NewImage: repairImage(dynamodb.NewImage) }),
      ...(dynamodb?.OldImage && { OldImage: repairImage(dynamodb.OldImage) }),
      ...(at && { ApproximateCreationDateTime: at.getTime() / 1000 }),
    },
  } as DynamoDBRecord;
}

type Value = Record<string, unknown>;

/**
 * The Streams client reads an empty map attribute (`{"M":{}}` on the wire) as a value with no
 * member at all (`{}`); Lambda hands it over as sent. An empty map is the only value that can
 * come out empty, so `{}` is given its `M` back, at any depth.
 */
function repairImage(image: Record<string, unknown>): Record<string, unknown> {
  const repair = (value: Value): Value => {
    if (Object.keys(value).length === 0) return { M: {} };
    if (value.M) return { M: repairImage(value.M as Record<string, unknown>) };
    if (Array.isArray(value.L)) return { L: (value.L as Value[]).map(repair) };
    return value;
  };
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, repair(value as Value)]));
}
