import { AsyncResource } from 'node:async_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchGet } from './batch.ts';
import { db } from './client.ts';
import type { Key } from './keys.ts';

// GetItem, with the reads that are asked for while one turn of the event loop runs sent together
// as one BatchGetItem. The records of an SQS batch are processed concurrently and reach the same
// read at about the same time (the events consumer reads ten triggers, then ten subscribers; the
// jobs consumer ten notifications, then their subscribers): each batch of reads is one request
// instead of ten. A read alone is a plain GetItem. Each caller gets what its own GetItem would
// have answered, with the same consistency; when the batched request fails, each read is made
// again alone (in its caller's async context), so one bad read fails only its own caller's record.

type Item = Record<string, unknown>;

interface Waiting {
  key: Key;
  resolve: (item: Item | undefined) => void;
  reject: (error: unknown) => void;
  /** Runs a read in the async context of the caller (the invocation it belongs to). */
  inCallerContext: <T>(read: () => Promise<T>) => Promise<T>;
}

const waiting = { consistent: [] as Waiting[], eventual: [] as Waiting[] };
let flushScheduled = false;

export function getItem(key: Key, options: { consistent?: boolean } = {}): Promise<Item | undefined> {
  return new Promise((resolve, reject) => {
    const inCallerContext = AsyncResource.bind(<T>(read: () => Promise<T>) => read());
    waiting[options.consistent ? 'consistent' : 'eventual'].push({ key: { pk: key.pk, sk: key.sk }, resolve, reject, inCallerContext });
    if (!flushScheduled) {
      flushScheduled = true;
      // After the promise callbacks of this turn: every record that is about to read has asked.
      setImmediate(flush);
    }
  });
}

function flush(): void {
  flushScheduled = false;
  for (const consistent of [true, false]) {
    const kind = consistent ? 'consistent' : 'eventual';
    const reads = waiting[kind];
    waiting[kind] = [];
    if (reads.length > 0) void read(reads, consistent);
  }
}

const idOf = (key: { pk: unknown; sk: unknown }) => `${String(key.pk)}\n${String(key.sk)}`;

async function getAlone(key: Key, consistent: boolean): Promise<Item | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return Item;
}

async function read(reads: Waiting[], consistent: boolean): Promise<void> {
  const keys = new Map(reads.map((r) => [idOf(r.key), r.key]));
  let items: Item[];
  try {
    if (keys.size === 1) {
      const item = await getAlone(reads[0]!.key, consistent);
      items = item ? [item] : [];
    } else {
      items = await batchGet([...keys.values()], undefined, { consistent });
    }
  } catch (error) {
    if (keys.size === 1) for (const r of reads) r.reject(error);
    else for (const r of reads) r.inCallerContext(() => getAlone(r.key, consistent)).then(r.resolve, r.reject);
    return;
  }
  const found = new Map(items.map((item) => [idOf(item as { pk: unknown; sk: unknown }), item]));
  const given = new Set<string>();
  for (const r of reads) {
    const id = idOf(r.key);
    const item = found.get(id);
    // Two callers of one key (a message delivered twice at once) each get their own copy.
    r.resolve(item && given.has(id) ? structuredClone(item) : item);
    given.add(id);
  }
}
