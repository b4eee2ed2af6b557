import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { keys } from '../store/keys.ts';
import { ttlAfter, ttlAt } from '../store/retention.ts';
import { TABLE } from '../store/table.ts';
import { failedConditions, transact, type TransactItem } from '../store/transact.ts';
import type { Count } from './transitions.ts';

// The engagement counters, kept exactly once per counted fact. The counts of one batch of stream
// records go out as TransactWriteItems of (a) one marker per (item, event), created only if absent,
// and (b) one ADD per counter item (a workflow's day) with the batch's sums. A marker that exists
// already (a record handed over again, a duplicate record, a fact that turned true twice) cancels
// the transaction; its reasons name those markers, which are dropped with their increments and the
// rest written again. A fact that only its item's creation can count (`markedBy`: an in-app
// message's delivery) has no marker of its own: its creation fact's marker stands for both, so an
// in-app message costs one marker, not two (2 write units less: a marker is written in a
// transaction). Nothing is read first: a batch costs its markers and one write per counter item
// it touches (docs/engagement.md, "Numbers over time").

/** Counter items are kept this long after their day (DynamoDB deletes them by TTL). */
export const COUNTER_RETENTION_DAYS = 400;
/** Markers per transaction: with one counter item each at worst, within TransactWriteItems' 100 items. */
const MARKERS_PER_TRANSACTION = 50;
/** Attempts of a transaction that lost to a concurrent one (another shard's batch on the same counter). */
const ATTEMPTS = 8;

export interface ScopedCount extends Count {
  scope: EnvScope;
}

/** The counter attribute of a count: `triggered`, or `<channel>#<event>`. */
export const counterField = (count: Pick<Count, 'event' | 'channel'>): string =>
  count.channel ? `${count.channel}#${count.event}` : count.event;

const dayOf = (iso: string): string => new Date(iso).toISOString().slice(0, 10);

const markerKey = (c: ScopedCount) => keys.engagementCounted(c.scope, c.itemId, c.event);
const identity = (c: ScopedCount) => JSON.stringify(markerKey(c));

/** A marker and the counts it stands for (its own first). */
interface Marked {
  marker: ScopedCount;
  counts: ScopedCount[];
}

/** Stores the counts of one batch: each (item, event) at most once, ever. */
export async function applyCounts(counts: readonly ScopedCount[]): Promise<void> {
  const marked = markedCounts(counts);
  for (let i = 0; i < marked.length; i += MARKERS_PER_TRANSACTION) {
    await applyChunk(marked.slice(i, i + MARKERS_PER_TRANSACTION));
  }
}

/** The batch's counts under their markers; two records of the same fact: one marker, one increment. */
function markedCounts(counts: readonly ScopedCount[]): Marked[] {
  const unique = [...new Map(counts.map((c) => [identity(c), c])).values()];
  const marked = new Map<string, Marked>();
  for (const c of unique) if (!c.markedBy) marked.set(identity(c), { marker: c, counts: [c] });
  for (const c of unique) {
    if (!c.markedBy) continue;
    const by = marked.get(identity({ ...c, event: c.markedBy }));
    // Its creation fact is of the same record, so in the same batch; were it not, it marks itself.
    if (by) by.counts.push(c);
    else marked.set(identity(c), { marker: c, counts: [c] });
  }
  return [...marked.values()];
}

async function applyChunk(chunk: Marked[]): Promise<void> {
  let pending = chunk;
  while (pending.length > 0) {
    const refused = await transact([...pending.map((m) => markerPut(m.marker)), ...counterUpdates(pending.flatMap((m) => m.counts))], {
      answers: ['ConditionalCheckFailed'],
      attempts: ATTEMPTS,
    });
    if (!refused) return;
    // Markers come first in the transaction: a failed position below their count is a marker.
    const counted = new Set(failedConditions(refused).filter((i) => i < pending.length));
    pending = pending.filter((_, i) => !counted.has(i));
  }
}

function markerPut(c: ScopedCount): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...markerKey(c), type: 'EngagementCounted', at: c.at, ...ttlAt(c.kind, new Date(c.createdAt)) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** One ADD per counter item (environment, day, workflow), summing the chunk's counts. */
function counterUpdates(chunk: readonly ScopedCount[]): TransactItem[] {
  const items = new Map<string, { scope: EnvScope; day: string; workflowId: string; sums: Map<string, number> }>();
  for (const c of chunk) {
    const day = dayOf(c.at);
    const id = JSON.stringify(keys.engagementCounters(c.scope, day, c.workflowId));
    const item = items.get(id) ?? { scope: c.scope, day, workflowId: c.workflowId, sums: new Map<string, number>() };
    const field = counterField(c);
    item.sums.set(field, (item.sums.get(field) ?? 0) + 1);
    items.set(id, item);
  }
  return [...items.values()].map(({ scope, day, workflowId, sums }) => {
    const fields = [...sums.entries()];
    const names: Record<string, string> = { '#day': 'day', '#wf': 'workflowId', '#ttl': TABLE.ttlAttribute };
    const values: Record<string, unknown> = {
      ':day': day,
      ':wf': workflowId,
      ':ttl': ttlAfter(new Date(`${day}T00:00:00Z`), COUNTER_RETENTION_DAYS)[TABLE.ttlAttribute],
    };
    fields.forEach(([field, n], i) => {
      names[`#f${i}`] = field;
      values[`:n${i}`] = n;
    });
    return {
      Update: {
        TableName: tableName(),
        Key: keys.engagementCounters(scope, day, workflowId),
        UpdateExpression: `SET #day = :day, #wf = :wf, #ttl = :ttl ADD ${fields.map((_, i) => `#f${i} :n${i}`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  });
}
