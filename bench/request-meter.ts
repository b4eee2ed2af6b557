import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

// Counts the DynamoDB requests of this process and the capacity they consume, per operation, by
// a middleware on the client's stack (the document client and Powertools share it). Nothing uses
// it in production (it lives with the benchmark, which installs it; test/integration/batched-reads
// counts with it too), and only then do requests ask for
// ReturnConsumedCapacity=TOTAL — not while a section is timed: DynamoDB Local does measurable work
// for it (a bulk trigger took 86 ms with it, 69 ms without), which the raw writes it is compared
// with do not pay. Request counts are exact either way.

/** DynamoDB's operation names, by the command names of the SDK and of lib-dynamodb. */
const OPERATION_OF: Record<string, string> = {
  PutCommand: 'PutItem',
  GetCommand: 'GetItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  QueryCommand: 'Query',
  BatchGetCommand: 'BatchGetItem',
  BatchWriteCommand: 'BatchWriteItem',
  TransactWriteCommand: 'TransactWriteItems',
  TransactGetCommand: 'TransactGetItems',
  BatchExecuteStatementCommand: 'BatchExecuteStatement',
};

/**
 * The operations that write: each call is one write request, whatever it holds. The service's
 * only PartiQL batches are INSERTs (lib/store/insert-batch.ts). DynamoDB Local answers those with
 * no ConsumedCapacity: their units are missing from what it counts (each INSERT bills as a Put).
 */
export const WRITE_OPERATIONS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'BatchExecuteStatement',
]);

const CAPACITY_OPERATIONS = new Set([
  'PutItem',
  'GetItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
  'BatchExecuteStatement',
]);

export interface OperationCount {
  requests: number;
  /** Requests that failed (conditional checks, cancelled transactions, ...). */
  failed: number;
  readUnits: number;
  writeUnits: number;
}

export type RequestCounts = Record<string, OperationCount>;

export interface RequestMeter {
  /** A copy of the counts so far, per operation. */
  snapshot(): RequestCounts;
  /** Whether requests ask for their consumed capacity (on at first). */
  askCapacity(on: boolean): void;
}

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const meters = new WeakMap<DynamoDBClient, RequestMeter>();

/** Starts counting the requests `client` sends (once per client; later calls return the same meter). */
export function meterRequests(client: DynamoDBClient): RequestMeter {
  const existing = meters.get(client);
  if (existing) return existing;
  const counts: RequestCounts = {};
  let capacity = true;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context as { commandName?: string }).commandName ?? 'Unknown';
      const operation = OPERATION_OF[name] ?? name.replace(/Command$/, '');
      const count = (counts[operation] ??= { requests: 0, failed: 0, readUnits: 0, writeUnits: 0 });
      count.requests++;
      const input = args.input as { ReturnConsumedCapacity?: string };
      if (capacity && CAPACITY_OPERATIONS.has(operation)) input.ReturnConsumedCapacity ??= 'TOTAL';
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
        for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
          // TOTAL gives CapacityUnits only; split by what the operation does.
          const units = c.CapacityUnits ?? (c.ReadCapacityUnits ?? 0) + (c.WriteCapacityUnits ?? 0);
          if (WRITE_OPERATIONS.has(operation)) count.writeUnits += units;
          else count.readUnits += units;
        }
        return result;
      } catch (error) {
        count.failed++;
        throw error;
      }
    },
    { step: 'initialize', name: 'requestMeterMiddleware', priority: 'high' },
  );
  const meter = {
    snapshot: () => structuredClone(counts),
    askCapacity: (on: boolean) => {
      capacity = on;
    },
  };
  meters.set(client, meter);
  return meter;
}

/** What happened between two snapshots. */
export function countsBetween(before: RequestCounts, after: RequestCounts): RequestCounts {
  const out: RequestCounts = {};
  for (const [operation, a] of Object.entries(after)) {
    const b = before[operation] ?? { requests: 0, failed: 0, readUnits: 0, writeUnits: 0 };
    const d = {
      requests: a.requests - b.requests,
      failed: a.failed - b.failed,
      readUnits: a.readUnits - b.readUnits,
      writeUnits: a.writeUnits - b.writeUnits,
    };
    if (d.requests > 0) out[operation] = d;
  }
  return out;
}
