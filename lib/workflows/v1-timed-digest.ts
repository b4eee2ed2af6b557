import type { V1MetadataInput } from './v1-schemas.ts';

// A v1 timed digest (`metadata.timed`: at a time of day, on days of the week or month) as the cron
// expression the pipeline runs timed digests by, in the subscriber's time zone as the reference
// does. The reference evaluates these as recurrence rules that can also say "every second week"
// or "the first weekday of the month"; what cron cannot say is refused, not approximated.

export type TimedDigest = { cron: string } | { error: string; field: string };

const DAY = { sunday: 'SUN', monday: 'MON', tuesday: 'TUE', wednesday: 'WED', thursday: 'THU', friday: 'FRI', saturday: 'SAT' } as const;

function timeOfDay(atTime: string | undefined): { minute: number; hour: number; second: number } | undefined {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(atTime ?? '');
  if (!match) return undefined;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  return hour < 24 && minute < 60 && second < 60 ? { hour, minute, second } : undefined;
}

export function timedDigestCron(metadata: V1MetadataInput): TimedDigest {
  const timed = metadata.timed ?? {};
  const unit = metadata.unit ?? 'minutes';
  if (unit !== 'days' && unit !== 'weeks' && unit !== 'months') {
    return { field: 'metadata.unit', error: 'a timed digest repeats every day, week or month (unit days, weeks or months)' };
  }
  if ((metadata.amount ?? 1) !== 1) {
    return { field: 'metadata.amount', error: `a timed digest runs every ${unit.slice(0, -1)}: amount must be 1` };
  }
  const at = timeOfDay(timed.atTime);
  if (!at) return { field: 'metadata.timed.atTime', error: 'atTime must be a time of day, HH:mm or HH:mm:ss' };
  const time = at.second === 0 ? `${at.minute} ${at.hour}` : `${at.second} ${at.minute} ${at.hour}`;
  const weekDays = (timed.weekDays ?? []).map((day) => DAY[day]).join(',');

  if (unit === 'days') return { cron: `${time} * * ${weekDays || '*'}` };
  if (unit === 'weeks') {
    if (!weekDays) return { field: 'metadata.timed.weekDays', error: 'a weekly timed digest needs at least one of weekDays' };
    return { cron: `${time} * * ${weekDays}` };
  }
  if (timed.monthlyType === 'on') {
    const { ordinal, ordinalValue } = timed;
    if (!ordinal || !ordinalValue) return { field: 'metadata.timed', error: 'a monthly timed digest "on" needs ordinal and ordinalValue' };
    if (ordinalValue === 'weekday' || ordinalValue === 'weekend') {
      return { field: 'metadata.timed.ordinalValue', error: 'weekday and weekend have no cron equivalent: name a day of the week or day' };
    }
    const nth = ordinal === 'last' ? 'L' : ordinal;
    return { cron: ordinalValue === 'day' ? `${time} ${nth} * *` : `${time} * * ${DAY[ordinalValue]}#${nth}` };
  }
  if (weekDays) {
    return { field: 'metadata.timed.weekDays', error: 'a monthly timed digest takes monthDays (or monthlyType "on"), not weekDays' };
  }
  const monthDays = [...new Set(timed.monthDays ?? [])].sort((a, b) => a - b);
  if (monthDays.length === 0) return { field: 'metadata.timed.monthDays', error: 'a monthly timed digest needs at least one of monthDays' };
  return { cron: `${time} ${monthDays.join(',')} * *` };
}
