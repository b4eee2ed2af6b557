import { minutesOf, WEEK_DAYS } from '../preferences/schedule-times.ts';
import type { Schedule } from '../preferences/schemas.ts';

// A subscriber's delivery schedule: weekly hour ranges in the subscriber's time zone. Ranges whose
// end is before their start run overnight into the next day.

export function withinSchedule(schedule: Schedule | undefined, timezone: string | null | undefined, at: Date): boolean {
  if (!schedule?.isEnabled || !schedule.weeklySchedule) return true;
  const { day, minutes } = localTime(at, timezone ?? 'UTC');
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

/** Day of week (0 = Monday) and minutes since midnight in `timezone`. */
function localTime(at: Date, timezone: string): { day: number; minutes: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday'));
  return { day, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}
