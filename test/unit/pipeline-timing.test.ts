import { describe, expect, it } from 'vitest';
import type { JobContext } from '#lib/pipeline/decision.ts';
import { durationMs, nextCronTime } from '#lib/workflows/durations.ts';
import { valueAtPath } from '#lib/pipeline/path.ts';
import { withinSchedule } from '#lib/pipeline/schedule.ts';
import { decideDelay, dynamicTime } from '#lib/pipeline/steps/delay.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// The pure timing rules of the pipeline: durations, cron in the subscriber's zone, schedules,
// payload paths and the delay step's decision.

describe('durations', () => {
  it('counts months as 30 days', () => {
    expect(durationMs(2, 'minutes')).toBe(120_000);
    expect(durationMs(1, 'months')).toBe(30 * 86_400_000);
  });

  it('finds the next cron time in the subscriber time zone', () => {
    const from = new Date('2026-03-10T10:00:00Z');
    // 09:00 every day in New York (UTC-4 in March after DST starts on the 8th) is 13:00 UTC.
    expect(nextCronTime('0 9 * * *', from, 'America/New_York').toISOString()).toBe('2026-03-10T13:00:00.000Z');
    expect(nextCronTime('0 9 * * *', from, null).toISOString()).toBe('2026-03-11T09:00:00.000Z');
    // An unknown zone falls back to UTC rather than failing the step.
    expect(nextCronTime('0 9 * * *', from, 'Not/AZone').toISOString()).toBe('2026-03-11T09:00:00.000Z');
  });

  it('takes the first cron time strictly after `from`, with seconds when given six fields', () => {
    expect(nextCronTime('0 9 * * *', new Date('2026-03-10T09:00:00Z')).toISOString()).toBe('2026-03-11T09:00:00.000Z');
    expect(nextCronTime('0 9 * * *', new Date('2026-03-10T08:59:59.999Z')).toISOString()).toBe('2026-03-10T09:00:00.000Z');
    expect(nextCronTime('*/10 * * * * *', new Date('2026-03-10T09:00:05Z')).toISOString()).toBe('2026-03-10T09:00:10.000Z');
    expect(nextCronTime('@weekdays', new Date('2026-03-14T12:00:00Z')).toISOString()).toBe('2026-03-16T00:00:00.000Z');
    expect(() => nextCronTime('0 9 31 2 *', new Date('2026-03-10T09:00:00Z'))).toThrow();
  });

  it('runs a cron time inside a DST gap at the end of the gap, and a repeated one once', () => {
    // New York skips 02:00-03:00 on 2026-03-08 and repeats 01:00-02:00 on 2026-11-01.
    expect(nextCronTime('30 2 * * *', new Date('2026-03-08T05:00:00Z'), 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z');
    const first = nextCronTime('30 1 * * *', new Date('2026-11-01T04:00:00Z'), 'America/New_York');
    expect(first.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(nextCronTime('30 1 * * *', first, 'America/New_York').toISOString()).toBe('2026-11-02T06:30:00.000Z');
  });

  it('reads a dynamic time as an ISO date or an amount from now', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(dynamicTime('2026-01-02T00:00:00Z', now)?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(dynamicTime({ amount: 2, unit: 'hours' }, now)?.toISOString()).toBe('2026-01-01T02:00:00.000Z');
    expect(dynamicTime('not a date', now)).toBeUndefined();
    expect(dynamicTime({ amount: 2, unit: 'fortnights' }, now)).toBeUndefined();
  });
});

describe('payload paths', () => {
  it('accepts plain, payload-prefixed and Liquid-wrapped paths', () => {
    const payload = { post: { id: 7 } };
    expect(valueAtPath(payload, 'post.id')).toBe(7);
    expect(valueAtPath(payload, 'payload.post.id')).toBe(7);
    expect(valueAtPath(payload, '{{ payload.post.id }}')).toBe(7);
    expect(valueAtPath(payload, 'post.missing.deeper')).toBeUndefined();
  });
});

describe('subscriber schedule', () => {
  const weekdays = {
    isEnabled: true,
    weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } },
  };
  // 2026-11-23 is a Monday.
  it('allows times inside a range of the day, in the subscriber zone', () => {
    expect(withinSchedule(weekdays, 'UTC', new Date('2026-11-23T10:00:00Z'))).toBe(true);
    expect(withinSchedule(weekdays, 'UTC', new Date('2026-11-23T17:00:00Z'))).toBe(false);
    // 10:00 UTC is 05:00 in New York: outside.
    expect(withinSchedule(weekdays, 'America/New_York', new Date('2026-11-23T10:00:00Z'))).toBe(false);
    // Tuesday has no ranges.
    expect(withinSchedule(weekdays, 'UTC', new Date('2026-11-24T10:00:00Z'))).toBe(false);
  });

  it('allows everything when the schedule is off or absent', () => {
    expect(withinSchedule(undefined, 'UTC', new Date())).toBe(true);
    expect(withinSchedule({ ...weekdays, isEnabled: false }, 'UTC', new Date('2026-11-24T10:00:00Z'))).toBe(true);
  });
});

describe('delay step', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  function context(
    controlValues: Record<string, unknown>,
    extra: { payload?: Record<string, unknown>; overrides?: Record<string, unknown>; status?: string } = {},
  ): JobContext {
    const s = step('delay', controlValues);
    return {
      scope: { organizationId: 'o', environmentId: 'e' },
      notification: { payload: extra.payload ?? {}, overrides: extra.overrides ?? {} },
      job: { status: extra.status ?? 'queued' },
      step: s,
      workflow: workflow([s]),
      subscriber: undefined,
      variables: {},
      now,
    } as unknown as JobContext;
  }

  it('waits the regular amount, or the amount the trigger overrides it with', () => {
    const regular = decideDelay(context({ type: 'regular', amount: 30, unit: 'minutes' }));
    expect(regular).toMatchObject({ status: 'delayed', job: { delayUntil: '2026-01-01T00:30:00.000Z' }, after: { kind: 'wait' } });
    const overridden = decideDelay(
      context({ type: 'regular', amount: 30, unit: 'minutes' }, { overrides: { delay: { amount: 2, unit: 'hours' } } }),
    );
    expect(overridden.job?.delayUntil).toBe('2026-01-01T02:00:00.000Z');
  });

  it('waits until the time the payload gives, or the next cron time', () => {
    expect(
      decideDelay(context({ type: 'dynamic', dynamicKey: 'sendAt' }, { payload: { sendAt: '2026-01-03T00:00:00Z' } })).job?.delayUntil,
    ).toBe('2026-01-03T00:00:00.000Z');
    expect(decideDelay(context({ type: 'timed', cron: '0 12 * * *' })).job?.delayUntil).toBe('2026-01-01T12:00:00.000Z');
  });

  it('goes straight on when the time has passed, and when its wait is over', () => {
    expect(decideDelay(context({ type: 'dynamic', dynamicKey: 'sendAt' }, { payload: { sendAt: '2025-01-01T00:00:00Z' } }))).toMatchObject({
      status: 'completed',
      after: { kind: 'next' },
    });
    expect(decideDelay(context({ type: 'regular', amount: 1, unit: 'hours' }, { status: 'delayed' }))).toMatchObject({
      status: 'completed',
    });
  });

  it('fails and ends the workflow when it cannot tell how long to wait', () => {
    const decision = decideDelay(context({ type: 'regular' }));
    expect(decision).toMatchObject({ status: 'failed', after: { kind: 'end', rest: 'canceled' } });
    expect(decision.details[0]?.detail).toBe('Invalid delay configuration');
  });
});
