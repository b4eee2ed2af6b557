import { BadRequestError } from '../errors.ts';
import { retentionStart } from '../store/retention.ts';
import { isId, timeOfId } from '../ids.ts';
import { DAY_MS } from '../time.ts';

// The time window of an activity query: `after`/`before` as the reference reads them, defaults
// from the retention (lib/store/retention.ts: what is older has expired), and the
// notification-id bounds of the window (ids start with their creation second, so an id range is
// a time range in every index the feed reads).

/** Inclusive bounds, to the millisecond. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

function parseDate(parameter: 'after' | 'before', value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new BadRequestError(`Invalid date format for parameter '${parameter}': ${value}. Please provide a valid ISO 8601 date string.`);
  }
  return date;
}

/**
 * The window to read, or undefined when nothing can fall in it. Bad dates and a reversed range
 * are 400s (as the reference answers). Then the window is cut to what the feed holds: nothing is
 * listed from before the retention start (where the reference answers 402, we simply show what
 * is kept), from before the environment was made, or from the future, which also bounds how many
 * day partitions a query may walk.
 */
export function timeWindow(
  after: string | undefined,
  before: string | undefined,
  now: Date,
  environmentId: string,
): TimeWindow | undefined {
  const kept = retentionStart('activity', now);
  const start = after === undefined ? kept : parseDate('after', after);
  const end = before === undefined ? now : parseDate('before', before);
  if (start.getTime() > end.getTime()) {
    throw new BadRequestError('Invalid date range: start date (after) must be earlier than end date (before)');
  }
  const from = new Date(Math.max(start.getTime(), kept.getTime(), madeAt(environmentId), 0));
  const to = new Date(Math.min(end.getTime(), now.getTime()));
  return from.getTime() <= to.getTime() ? { from, to } : undefined;
}

const secondsHex = (date: Date) =>
  Math.floor(date.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');

/** The smallest notification id made at `date`'s second. */
export const lowestIdAt = (date: Date): string => `${secondsHex(date)}${'0'.repeat(16)}`;

/** The largest notification id made at `date`'s second. */
export const highestIdAt = (date: Date): string => `${secondsHex(date)}${'f'.repeat(16)}`;

/** The UTC days (yyyy-mm-dd) the window touches, newest first. */
export function daysOf({ from, to }: TimeWindow): string[] {
  const days: string[] = [];
  const first = Math.floor(from.getTime() / DAY_MS);
  for (let day = Math.floor(to.getTime() / DAY_MS); day >= first; day--) {
    days.push(new Date(day * DAY_MS).toISOString().slice(0, 10));
  }
  return days;
}

/** How much earlier than its environment a record's id may say it was made: another host's clock. */
const CLOCK_MARGIN_MS = 60_000;

/**
 * The earliest time a record of the environment can carry (epoch ms). Nothing of an environment is
 * older than the environment, and its id says when it was made (ids start with their creation
 * time, the reference's ObjectIds too). Without this bound a young or quiet environment's feed
 * walked every day of the retention for a page with nothing more to find: eight index partitions a
 * day, 248 Queries over the default 30 days, a century's worth where retention is set so.
 */
function madeAt(environmentId: string): number {
  return isId(environmentId) ? timeOfId(environmentId).getTime() - CLOCK_MARGIN_MS : 0;
}
