import { AsyncLocalStorage } from 'node:async_hooks';
import { BatchExecuteStatementCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { RecordGatherer } from '../record-gatherer.ts';
import { db } from './client.ts';
import { writeIf } from './conditions.ts';

// Writes of new items that must not overwrite (a Put with `attribute_not_exists(pk)`), gathered
// over one consumer invocation's records (lib/record-gatherer.ts: until every other record of the
// batch is waiting to insert too or has finished, or a short wait, so a record held up by a slow
// endpoint does not hold back the others), then they go out as PartiQL INSERTs in one
// BatchExecuteStatement per 25. An INSERT fails on an existing key, statement by statement, so
// each item keeps its own condition (a batch write has none; a transaction would cancel all of
// them for one and bill each item twice), at the write units of a Put. Each record learns only
// its own outcome; a statement that fails for any other reason, or a request that fails, leaves
// its items to be written alone by the conditional Put, so errors are each record's own. Without
// a batch running (outside a consumer), every insert is that Put.

type Item = Record<string, unknown>;

interface Waiting {
  item: Item;
  /** true: inserted; false: the key exists; undefined: write it alone. */
  settle: (outcome: boolean | undefined) => void;
}

const storage = new AsyncLocalStorage<InsertBatch>();
/** BatchExecuteStatement's limit. */
const STATEMENTS_PER_REQUEST = 25;

export class InsertBatch {
  // Each key is in a flush once: insert() holds a second insert of a key back until the first settles.
  private readonly gatherer = new RecordGatherer<InsertBatch, Waiting>(storage, this, (waiting) => {
    for (let i = 0; i < waiting.length; i += STATEMENTS_PER_REQUEST) void insertTogether(waiting.slice(i, i + STATEMENTS_PER_REQUEST));
  });
  /** The outcome of the insert under way for each key. */
  private underWay = new Map<string, Promise<boolean>>();

  /** Runs one record's work: the inserts it makes are gathered with the other records'. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.gatherer.run(work);
  }

  /**
   * A second insert of a key while the first is under way (a message delivered twice at once)
   * waits for the first: written, the key is taken; failed, the second tries alone.
   */
  insert(item: Item): Promise<boolean> {
    const key = `${String(item.pk)}\n${String(item.sk)}`;
    const earlier = this.underWay.get(key);
    const outcome = earlier
      ? earlier.then(
          () => false,
          () => putIfAbsent(item),
        )
      : this.add(item).then((inserted) => inserted ?? putIfAbsent(item));
    this.underWay.set(key, outcome);
    const forget = () => {
      if (this.underWay.get(key) === outcome) this.underWay.delete(key);
    };
    outcome.then(forget, forget);
    return outcome;
  }

  private add(item: Item): Promise<boolean | undefined> {
    return new Promise((settle) => this.gatherer.gather({ item, settle }));
  }
}

const quoted = (name: string) => `'${name.replace(/'/g, "''")}'`;

async function insertTogether(batch: readonly Waiting[]): Promise<void> {
  if (batch.length === 1) return batch[0]!.settle(undefined);
  try {
    const { Responses = [] } = await db().send(
      new BatchExecuteStatementCommand({
        Statements: batch.map(({ item }) => {
          const names = Object.keys(item).filter((name) => item[name] !== undefined);
          return {
            Statement: `INSERT INTO "${tableName()}" VALUE {${names.map((name) => `${quoted(name)}: ?`).join(', ')}}`,
            Parameters: names.map((name) => item[name]),
          };
        }),
      }),
    );
    batch.forEach((w, i) => {
      const error = Responses[i]?.Error;
      w.settle(!error ? true : error.Code === 'DuplicateItem' ? false : undefined);
    });
  } catch {
    for (const w of batch) w.settle(undefined);
  }
}

/** Writes `item` unless an item of its key exists: true when written. */
export function insertIfAbsent(item: Item): Promise<boolean> {
  return storage.getStore()?.insert(item) ?? putIfAbsent(item);
}

function putIfAbsent(item: Item): Promise<boolean> {
  return writeIf(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
}
