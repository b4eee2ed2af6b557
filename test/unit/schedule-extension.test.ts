import { describe, expect, it } from 'vitest';
import type { JobContext } from '#lib/pipeline/decision.ts';
import { nextWindowStart } from '#lib/pipeline/schedule.ts';
import { decideDelay } from '#lib/pipeline/steps/delay.ts';
import { MAX_EXTENSIONS } from '#lib/pipeline/steps/schedule-extension.ts';
import type { Schedule } from '#lib/preferences/schemas.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// The next window of a subscriber's delivery schedule, and the delay step's extension to it.

const at = (iso: string) => new Date(iso);
const next = (schedule: Schedule, timezone: string | null, iso: string) => nextWindowStart(schedule, timezone, at(iso))?.toISOString();
const days = (weeklySchedule: Schedule['weeklySchedule']): Schedule => ({ isEnabled: true, weeklySchedule });
const range = (start: string, end: string) => ({ isEnabled: true, hours: [{ start, end }] });

describe('next window of a schedule', () => {
  // 2026-11-23 is a Monday.
  const mondays = days({ monday: range('09:00 AM', '05:00 PM') });

  it('is now inside a window, else the next start that day', () => {
    expect(next(mondays, 'UTC', '2026-11-23T10:00:00.000Z')).toBe('2026-11-23T10:00:00.000Z');
    expect(next(mondays, 'UTC', '2026-11-23T07:15:30.000Z')).toBe('2026-11-23T09:00:00.000Z');
    expect(
      next(
        days({
          monday: {
            isEnabled: true,
            hours: [
              { start: '02:00 PM', end: '03:00 PM' },
              { start: '10:00 AM', end: '11:00 AM' },
            ],
          },
        }),
        'UTC',
        '2026-11-23T08:00:00Z',
      ),
    ).toBe('2026-11-23T10:00:00.000Z');
  });

  it('skips days without windows, up to the same weekday a week on', () => {
    expect(next(mondays, 'UTC', '2026-11-23T17:00:00Z')).toBe('2026-11-30T09:00:00.000Z');
    expect(
      next(
        days({ monday: range('09:00 AM', '05:00 PM'), tuesday: { isEnabled: false, hours: [] }, thursday: range('08:00 AM', '09:00 AM') }),
        'UTC',
        '2026-11-23T18:00:00Z',
      ),
    ).toBe('2026-11-26T08:00:00.000Z');
  });

  it('reads the ranges in the subscriber time zone (UTC without one, or with one that is unknown)', () => {
    // 05:00 in New York (UTC-5 in November): the window opens at 09:00 there, 14:00 UTC.
    expect(next(mondays, 'America/New_York', '2026-11-23T10:00:00Z')).toBe('2026-11-23T14:00:00.000Z');
    // 07:00 UTC is 12:30 Monday in Kolkata (UTC+5:30): inside.
    expect(next(mondays, 'Asia/Kolkata', '2026-11-23T07:00:00Z')).toBe('2026-11-23T07:00:00.000Z');
    // Sunday 23:00 UTC is already Monday 08:00 in Tokyo: the window is an hour away.
    expect(next(mondays, 'Asia/Tokyo', '2026-11-22T23:00:00Z')).toBe('2026-11-23T00:00:00.000Z');
    expect(next(mondays, null, '2026-11-23T07:00:00Z')).toBe('2026-11-23T09:00:00.000Z');
    expect(next(mondays, 'Not/AZone', '2026-11-23T07:00:00Z')).toBe('2026-11-23T09:00:00.000Z');
  });

  it('handles overnight ranges', () => {
    // Friday 10 PM to 6 AM; 2026-11-27 is a Friday.
    const nights = days({ friday: range('10:00 PM', '06:00 AM') });
    expect(next(nights, 'UTC', '2026-11-27T12:00:00Z')).toBe('2026-11-27T22:00:00.000Z');
    expect(next(nights, 'UTC', '2026-11-28T03:00:00Z')).toBe('2026-11-28T03:00:00.000Z');
    expect(next(nights, 'UTC', '2026-11-28T06:00:00Z')).toBe('2026-12-04T22:00:00.000Z');
  });

  it('follows daylight saving time changes', () => {
    // New York moves to UTC-4 on Sunday 2026-03-08: Monday's 09:00 is 13:00 UTC, not 14:00.
    expect(next(days({ monday: range('09:00 AM', '05:00 PM') }), 'America/New_York', '2026-03-08T12:00:00Z')).toBe(
      '2026-03-09T13:00:00.000Z',
    );
    // A start the clock skips (02:30 that Sunday) moves on by the gap: 03:30 EDT.
    expect(next(days({ sunday: range('02:30 AM', '04:00 AM') }), 'America/New_York', '2026-03-08T05:00:00Z')).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    // A start the clock shows twice (01:30 on 2026-11-01) is the first of the two.
    expect(next(days({ sunday: range('01:30 AM', '03:00 AM') }), 'America/New_York', '2026-11-01T04:00:00Z')).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });

  it('finds nothing when no window opens within a week', () => {
    expect(
      next(days({ monday: { isEnabled: false, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } }), 'UTC', '2026-11-23T07:00:00Z'),
    ).toBeUndefined();
    expect(next(days({}), 'UTC', '2026-11-23T07:00:00Z')).toBeUndefined();
  });
});

describe('delay step extended to the schedule', () => {
  // Monday 2026-11-23 07:00 UTC; the window opens at 09:00.
  const now = at('2026-11-23T07:00:00Z');
  const schedule = days({ monday: range('09:00 AM', '05:00 PM') });
  function ended(controls: Record<string, unknown>, extra: { critical?: boolean; count?: number } = {}): JobContext {
    const s = step('delay', { type: 'regular', amount: 1, unit: 'minutes', ...controls });
    return {
      scope: { organizationId: 'o', environmentId: 'e' },
      notification: { payload: {}, overrides: {}, critical: extra.critical ?? false },
      job: { status: 'delayed', delayUntil: now.toISOString(), ...(extra.count !== undefined && { scheduleExtensionsCount: extra.count }) },
      step: s,
      workflow: workflow([s]),
      subscriber: { timezone: 'UTC' },
      choices: { global: { schedule } },
      variables: {},
      now,
    } as unknown as JobContext;
  }

  it('waits for the next window and counts the extension', () => {
    const decision = decideDelay(ended({ extendToSchedule: true }, { count: 1 }));
    expect(decision).toMatchObject({
      status: 'delayed',
      job: { delayUntil: '2026-11-23T09:00:00.000Z', scheduleExtensionsCount: 2 },
      after: { kind: 'wait' },
    });
    expect(decision.details[0]!.detail).toBe('Step was extended to the next available time in the subscriber schedule');
    expect(JSON.parse(decision.details[0]!.raw!)).toEqual({
      delayMs: 2 * 3_600_000,
      nextAvailableTime: '2026-11-23T09:00:00.000Z',
      timezone: 'UTC',
      scheduleExtensionsCount: 2,
      maxScheduleExtensions: MAX_EXTENSIONS,
    });
  });

  it('goes on after the last extension, saying so', () => {
    const decision = decideDelay(ended({ extendToSchedule: true }, { count: MAX_EXTENSIONS }));
    expect(decision.status).toBe('completed');
    expect(decision.details.map((d) => d.detail)).toEqual([
      'Step was executed due to maximum number of subscriber schedule extensions reached',
    ]);
  });

  it('goes on without extendToSchedule, and for critical workflows', () => {
    expect(decideDelay(ended({})).status).toBe('completed');
    expect(decideDelay(ended({ extendToSchedule: false })).status).toBe('completed');
    expect(decideDelay(ended({ extendToSchedule: true }, { critical: true })).status).toBe('completed');
  });
});
