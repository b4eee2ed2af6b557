import { nextCronRun } from '../cron.ts';
import { DAY_MS } from '../time.ts';
import type { TimeUnit } from './controls.ts';

// Durations of delays, digest windows and throttle windows. Months count as 30 days, as in the
// reference; cron expressions run in the subscriber's time zone.

const UNIT_MS: Record<TimeUnit, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: DAY_MS,
  weeks: 7 * DAY_MS,
  months: 30 * DAY_MS,
};

export function durationMs(amount: number, unit: TimeUnit): number {
  return amount * UNIT_MS[unit];
}

export function isTimeUnit(value: unknown): value is TimeUnit {
  return typeof value === 'string' && value in UNIT_MS;
}

/** The next time the cron expression fires after `from`, in `timezone` (UTC when absent or unknown). */
export function nextCronTime(expression: string, from: Date, timezone?: string | null): Date {
  let next: Date | null;
  try {
    next = nextCronRun(expression, from, timezone ?? 'UTC');
  } catch (error) {
    if (!timezone) throw error;
    next = nextCronRun(expression, from, 'UTC');
  }
  if (!next) throw new Error(`cron expression never fires: ${expression}`);
  return next;
}
