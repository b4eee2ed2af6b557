import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from './client.ts';
import type { Key } from './keys.ts';

// Matching items newest first, read lazily: a source hands out one reference at a time and reads
// the next page only when asked for more. References carry only the table key and the id:
// queries project nothing else, so skipping deep into a list moves keys, never whole items.
// Several sources merge into one (the activity of several subscribers; the shards of a sharded
// index partition, lib/store/keys.ts), and what a source has not handed out can be counted
// without being read (Select COUNT), for a list's total. The activity feed and the message lists
// read through these.

export interface Ref extends Key {
  _id: string;
}

/** How many more matches a count may still add: shared by the sources counted together. */
export interface CountBudget {
  left: number;
}

export interface RefSource {
  /** The next match, newest first; `wanted` = how many more the caller may still take (a read-size hint). */
  next(wanted: number): Promise<Ref | undefined>;
}

/** A source whose rest can be counted without being read. */
export interface CountableSource extends RefSource {
  /**
   * How many matches are left that `next` has not handed out, counted until `budget` runs out
   * (then a lower bound); each counted match takes one from it. `ways`: how many sources count
   * into the budget at once, evenly filled (each sizes its reads to its share). `next` gives
   * nothing after this.
   */
  countRest(budget: CountBudget, ways?: number): Promise<number>;
}

/** A Query of a source: the key condition, the order, a filter; the source adds projection, limit and start. */
export type RefQueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit' | 'ProjectionExpression' | 'Select'>;

const PROJECTION = { ProjectionExpression: '#pk, #sk, #id', names: { '#pk': 'pk', '#sk': 'sk', '#id': '_id' } };
/** Items a single Query may evaluate; also what one page of references may hold. */
const MAX_PAGE = 1000;
/** Assumed share of items the filters keep, before a first page has shown it. */
const MIN_SELECTIVITY = 0.02;

const toRef = (item: Record<string, unknown>): Ref => ({ pk: item.pk as string, sk: item.sk as string, _id: item._id as string });

/**
 * One Query read page by page. `Limit` counts items before the filter, so each page is sized
 * from what is still wanted and the share of items earlier pages kept: a selective filter reads
 * larger pages instead of many small ones, an unfiltered read takes only what it needs.
 */
export class QuerySource implements CountableSource {
  private buffer: Ref[] = [];
  private lastKey: Record<string, unknown> | undefined;
  private done = false;
  private evaluated = 0;
  private kept = 0;

  constructor(private readonly input: RefQueryInput) {}

  async next(wanted: number): Promise<Ref | undefined> {
    while (this.buffer.length === 0 && !this.done) await this.read(wanted);
    return this.buffer.shift();
  }

  /** `ways`: how many sources count into `budget` at once (each sizes its pages to its share). */
  async countRest(budget: CountBudget, ways = 1): Promise<number> {
    let count = this.buffer.length;
    budget.left -= count;
    this.buffer = [];
    while (!this.done && budget.left > 0) {
      // A count returns no items, so its pages are not held to MAX_PAGE: DynamoDB's 1 MB bounds them.
      const page = await this.query(true, this.limitFor(shareOf(budget.left, ways), Infinity));
      count += page.Count ?? 0;
      budget.left -= page.Count ?? 0;
    }
    this.done = true;
    return count;
  }

  private async read(wanted: number): Promise<void> {
    const page = await this.query(false, this.limitFor(wanted, MAX_PAGE));
    this.buffer.push(...(page.Items ?? []).map(toRef));
  }

  /** Items to evaluate for `wanted` matches, from the share of items earlier pages kept. */
  private limitFor(wanted: number, max: number): number {
    const selectivity = this.evaluated === 0 ? 1 : Math.max(this.kept / this.evaluated, MIN_SELECTIVITY);
    return Math.min(max, Math.max(1, Math.ceil(wanted / selectivity)));
  }

  /** One page from where the last ended: references (projected), or only their count. */
  private async query(count: boolean, limit: number) {
    const { ExpressionAttributeNames: names, ...input } = this.input;
    // DynamoDB refuses names no expression uses: the projection's only with the projection.
    const ExpressionAttributeNames = count ? names : { ...names, ...PROJECTION.names };
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...input,
        ...(count ? { Select: 'COUNT' as const } : { ProjectionExpression: PROJECTION.ProjectionExpression }),
        ...(ExpressionAttributeNames && Object.keys(ExpressionAttributeNames).length > 0 && { ExpressionAttributeNames }),
        Limit: limit,
        ...(this.lastKey && { ExclusiveStartKey: this.lastKey }),
      }),
    );
    const kept = page.Count ?? page.Items?.length ?? 0;
    this.evaluated += page.ScannedCount ?? kept;
    this.kept += kept;
    this.lastKey = page.LastEvaluatedKey;
    this.done = this.lastKey === undefined;
    return page;
  }
}

/**
 * Several newest-first sources as one: each time, the newest of their heads. `spread`: the
 * matches are spread evenly over the sources (the shards of one index partition, by a hash), so
 * each is asked to read about its share of what is wanted, not all of it; otherwise (the activity
 * of several subscribers) any one source may supply all that is wanted, and each is asked for it.
 */
export function merged(sources: CountableSource[], { spread = false }: { spread?: boolean } = {}): CountableSource {
  if (sources.length === 1) return sources[0]!;
  const heads: (Ref | undefined)[] = [];
  const loaded: boolean[] = sources.map(() => false);
  const hint = (wanted: number) => (spread ? shareOf(wanted, sources.length) : wanted);
  return {
    async next(wanted) {
      await Promise.all(
        sources.map(async (source, i) => {
          if (loaded[i]) return;
          heads[i] = await source.next(hint(wanted));
          loaded[i] = true;
        }),
      );
      let newest = -1;
      heads.forEach((head, i) => {
        if (head && (newest < 0 || head._id > heads[newest]!._id)) newest = i;
      });
      if (newest < 0) return undefined;
      const ref = heads[newest];
      loaded[newest] = false;
      return ref;
    },
    async countRest(budget) {
      // The heads read but not handed out, then every source's rest, counted at once.
      let count = 0;
      heads.forEach((head, i) => {
        if (loaded[i] && head) count += 1;
        loaded[i] = true;
        heads[i] = undefined;
      });
      budget.left -= count;
      const rests = await Promise.all(sources.map((source) => source.countRest(budget, spread ? sources.length : 1)));
      return count + rests.reduce((a, b) => a + b, 0);
    },
  };
}

/**
 * What one of `n` evenly filled sources is asked for when `wanted` are wanted of them all: its
 * share and a margin of about two standard deviations (how many of the next `wanted` matches
 * fall in one source is binomial), so that one read per source usually suffices.
 */
function shareOf(wanted: number, n: number): number {
  if (n <= 1) return wanted;
  const mean = wanted / n;
  return Math.ceil(mean + 2 * Math.sqrt(mean)) + 1;
}
