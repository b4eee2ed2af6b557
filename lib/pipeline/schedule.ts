import { minutesOf, WEEK_DAYS } from '../preferences/schedule-times.ts';
import type { Schedule } from '../preferences/schemas.ts';
import { DAY_MS } from '../time.ts';

// A subscriber's delivery schedule: weekly hour ranges in the subscriber's time zone (UTC when
// it has none, or one Intl does not know). Ranges whose end is before their start run overnight
// into the next day.

/** How far ahead the next window is looked for (the reference's look-ahead). */
const LOOK_AHEAD_DAYS = 7;

export function withinSchedule(schedule: Schedule | undefined, timezone: string | null | undefined, at: Date): boolean {
  if (!schedule?.isEnabled || !schedule.weeklySchedule) return true;
  const { day, minutes } = localTime(at, formatOf(timezone));
  const today = schedule.weeklySchedule[WEEK_DAYS[day]!];
  const yesterday = schedule.weeklySchedule[WEEK_DAYS[(day + 6) % 7]!];
  const inRange = (start: number, end: number) => (end > start ? minutes >= start && minutes < end : minutes >= start);
  if (today?.isEnabled) {
    for (const h of today.hours ?? []) if (inRange(minutesOf(h.start), minutesOf(h.end))) return true;
  }
  if (yesterday?.isEnabled) {
    // The overnight tail of yesterday's ranges.
    for (const h of yesterday.hours ?? []) {
      const start = minutesOf(h.start);
      const end = minutesOf(h.end);
      if (end <= start && minutes < end) return true;
    }
  }
  return false;
}

/**
 * When the subscriber's schedule next allows delivery: `at` itself inside a window, else the
 * start of the next window within a week, else undefined (no window that soon). A start that a
 * spring-forward skips moves on by the gap (02:30 → 03:30), as Temporal's `compatible` does.
 */
export function nextWindowStart(schedule: Schedule | undefined, timezone: string | null | undefined, at: Date): Date | undefined {
  if (withinSchedule(schedule, timezone, at)) return at;
  const format = formatOf(timezone);
  const { year, month, date } = localTime(at, format);
  let next: number | undefined;
  for (let offset = 0; offset <= LOOK_AHEAD_DAYS; offset++) {
    const day = new Date(Date.UTC(year, month - 1, date + offset));
    const weekDay = schedule!.weeklySchedule![WEEK_DAYS[(day.getUTCDay() + 6) % 7]!];
    if (!weekDay?.isEnabled) continue;
    for (const h of weekDay.hours ?? []) {
      const start = instantOf(day.getTime() + minutesOf(h.start) * 60_000, format);
      if (start > at.getTime() && (next === undefined || start < next)) next = start;
    }
  }
  return next === undefined ? undefined : new Date(next);
}

const FIELDS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall-clock format of the subscriber's time zone, made once per zone and container (a
 * schedule is checked per delivery): UTC's when it has none, or one Intl does not know (those are
 * not kept, so made-up names cannot grow the map).
 */
function formatOf(timezone: string | null | undefined): Intl.DateTimeFormat {
  const zone = timezone || 'UTC';
  const kept = formats.get(zone);
  if (kept) return kept;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...FIELDS });
  } catch {
    return formatOf('UTC');
  }
  formats.set(zone, format);
  return format;
}

/** The wall clock of `format`'s zone at `at`: its date, day of week (0 = Monday) and minutes since midnight. */
function localTime(
  at: Date | number,
  format: Intl.DateTimeFormat,
): { year: number; month: number; date: number; day: number; minutes: number; wallMs: number } {
  const parts = format.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const [year, month, date, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((t) => Number(get(t))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday'));
  return { year, month, date, day, minutes: hour * 60 + minute, wallMs: Date.UTC(year, month - 1, date, hour, minute, second) };
}

/** The zone's offset from UTC at an instant, in ms. */
const offsetAt = (instant: number, format: Intl.DateTimeFormat): number =>
  localTime(instant, format).wallMs - Math.floor(instant / 1000) * 1000;

/**
 * The instant a wall-clock time (as ms of a UTC date) shows in `format`'s zone: the earlier of two
 * when the clock falls back; for a time the clock skips, the one the offset before the jump gives
 * (later).
 */
function instantOf(wallMs: number, format: Intl.DateTimeFormat): number {
  const before = wallMs - offsetAt(wallMs - DAY_MS, format);
  const after = wallMs - offsetAt(wallMs + DAY_MS, format);
  const valid = [before, after].filter((instant) => localTime(instant, format).wallMs === wallMs);
  return valid.length > 0 ? Math.min(...valid) : Math.max(before, after);
}
