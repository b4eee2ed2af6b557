import { Cron } from 'croner';

// Cron expressions of timed digests and delays: five fields, or six with seconds first, evaluated
// in an IANA time zone by croner (no date library: time zones come from Intl). The check when a
// workflow is saved and the evaluation when a step runs use the same options, so an expression
// that is accepted can run. DST: a fixed time that falls in a spring-forward gap runs at the end of
// the gap on the same day, a repeated one runs once; interval expressions skip the gap.

// Nicknames croner does not know (it has @yearly, @annually, @monthly, @weekly, @daily, @midnight
// and @hourly itself).
const NICKNAMES = new Map([
  ['@secondly', '* * * * * *'],
  ['@minutely', '* * * * *'],
  ['@weekdays', '0 0 * * 1-5'],
  ['@weekends', '0 0 * * 0,6'],
]);

/** Throws on an invalid expression; `timezone` is checked when the pattern is evaluated. */
const pattern = (expression: string, timezone: string) =>
  new Cron(NICKNAMES.get(expression) ?? expression, { mode: '5-or-6-parts', sloppyRanges: true, timezone });

/**
 * The first time after `from` (strictly) the expression fires in `timezone`, or null when it can
 * never fire (31 February). Throws on an invalid expression or an unknown zone.
 */
export function nextCronRun(expression: string, from: Date, timezone: string): Date | null {
  return pattern(expression, timezone).nextRun(from);
}

/** A valid expression that fires at some time. */
export function isCronExpression(expression: string): boolean {
  try {
    return nextCronRun(expression, new Date(), 'UTC') !== null;
  } catch {
    return false;
  }
}
