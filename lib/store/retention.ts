import { ENV, positiveNumber } from '../config.ts';
import { timeOfId } from '../ids.ts';
import { DAY_MS } from '../time.ts';
import { TABLE } from './table.ts';

// How long what a trigger leaves behind is kept, and the one place its expiry is decided. Each
// item of a retained kind carries `ttl` (epoch seconds) = the time its id names + the kind's
// retention, so DynamoDB deletes it by TTL; ids start with their creation time, so the oldest id
// still kept is also a sort-key bound, and every read of these items leaves out the expired ones
// (DynamoDB deletes up to ~48 h late, DynamoDB Local never) by that bound or, for an item read by
// key, by its id. Counts made from the indexes (inbox unread/unseen) are therefore right the
// moment an item expires, and again when DynamoDB deletes it: nothing is kept as a number.

/**
 * Triggers (the transactionId claim) and notifications (their jobs and execution details inside): the
 * activity. Messages may be kept longer.
 */
export type RetainedKind = 'activity' | 'message';

const DEFAULT_RETENTION_DAYS = 30;
/** A century, as the reference's self-hosted plan; also keeps dates valid. */
const MAX_RETENTION_DAYS = 36_500;

/** Days a kind is kept; read per call, so operators (and tests) can change it. Messages default to the activity's. */
export function retentionDays(kind: RetainedKind): number {
  const activity = positiveNumber(ENV.activityRetentionDays, DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS);
  return kind === 'message' ? positiveNumber(ENV.messageRetentionDays, activity, MAX_RETENTION_DAYS) : activity;
}

/** The `ttl` attribute of an item made at `createdAt` and kept `days`: DynamoDB deletes it after. */
export function ttlAfter(createdAt: Date, days: number): { [TABLE.ttlAttribute]: number } {
  return { [TABLE.ttlAttribute]: Math.floor((createdAt.getTime() + days * DAY_MS) / 1000) };
}

/** The `ttl` attribute of an item of `kind` made at `createdAt`: its creation + the kind's retention. */
export const ttlAt = (kind: RetainedKind, createdAt: Date) => ttlAfter(createdAt, retentionDays(kind));

/** The `ttl` attribute of an item of `kind` whose id is `id` (ids start with their creation time). */
export const ttlOf = (kind: RetainedKind, id: string) => ttlAt(kind, timeOfId(id));

/** The condition of a change to an item that must exist and not have expired (a trigger canceled after its retention is unknown). */
export function presentAndKept(now: Date = new Date()) {
  return {
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#ttl) OR #ttl >= :keptAt)',
    ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
    ExpressionAttributeValues: { ':keptAt': Math.floor(now.getTime() / 1000) },
  };
}

/**
 * The condition of a create that an expired item, not yet deleted by DynamoDB, does not block
 * (a transactionId claimed again after its retention): with `attribute_not_exists(pk)`.
 */
export function absentOrExpired(now: Date = new Date()) {
  return {
    ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
    ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
    ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
  };
}

/** When a kind's retention starts: what was created before has expired. */
export const retentionStart = (kind: RetainedKind, now: Date = new Date()): Date => new Date(now.getTime() - retentionDays(kind) * DAY_MS);

/** The lowest id not expired at `now` (ids of the retention start's second and later are kept), a sort-key bound. */
export function oldestKeptId(kind: RetainedKind, now: Date = new Date()): string {
  return Math.ceil(retentionStart(kind, now).getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
}

/** Whether the item of `kind` with this id has expired (whether or not DynamoDB deleted it yet). */
export const isExpired = (kind: RetainedKind, id: string, now: Date = new Date()): boolean => id < oldestKeptId(kind, now);

/**
 * The `userIdentity` of DynamoDB's TTL deletions in stream records: how a stream consumer tells an
 * expiry from a delete someone asked for (infra/local/ttl.ts gives the local runtime's the same).
 */
export const TTL_DELETION_IDENTITY = { type: 'Service', principalId: 'dynamodb.amazonaws.com' } as const;
