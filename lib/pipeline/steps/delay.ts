import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { durationMs, isTimeUnit, nextCronTime } from '../../workflows/durations.ts';
import { valueAtPath } from '../path.ts';
import { overDeferLimit } from './over-defer-limit.ts';
import { scheduleExtension } from './schedule-extension.ts';

// A delay step waits, then the chain goes on: a fixed amount (or `overrides.delay`), the next
// time of a cron expression in the subscriber's time zone, or a time the payload gives
// (dynamic), at most the maximum defer duration (lib/workflows/defer-limit.ts). The wait is a delayed SQS
// message, or a scheduled wake when longer than SQS allows (lib/queue/wake-scheduler.ts). With
// `extendToSchedule`, a wait that ends outside the subscriber's schedule is extended
// (schedule-extension.ts). A delay that waits for engagement (`waitFor`) is this wait with an
// early end: engagement-delay.ts.

export function decideDelay(context: JobContext): Decision {
  const { job, now } = context;
  if (job.status === 'delayed') return waitEnded(context);

  const until = delayUntil(context);
  if (!until) {
    return {
      status: 'failed',
      details: [detail(DETAILS.invalidDelay, 'Failed', { raw: context.step.controlValues }, now)],
      job: { error: DETAILS.invalidDelay },
      after: { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure },
    };
  }
  if (until.getTime() <= now.getTime()) return waitEnded(context);
  const overLimit = overDeferLimit(until, now);
  if (overLimit) return overLimit;
  const delay = until.getTime() - now.getTime();
  return {
    status: 'delayed',
    details: [detail(DETAILS.delayed, 'Pending', { raw: { delay, untilDate: until.toISOString() } }, now)],
    job: { delayUntil: until.toISOString(), waitedMs: (job.waitedMs ?? 0) + delay },
    after: { kind: 'wait', until },
  };
}

/** The wait is over: the chain goes on, unless the step extends it to the subscriber's schedule. */
function waitEnded(context: JobContext): Decision {
  const extension = scheduleExtension(context);
  if (extension.kind === 'wait') return extension.decision;
  return { status: 'completed', details: extension.details, job: { delayUntil: undefined, engagementWait: undefined }, after: next };
}

function delayUntil(context: JobContext): Date | undefined {
  const { step, notification, now } = context;
  const controls = step.controlValues as { type?: string; amount?: number; unit?: string; cron?: string; dynamicKey?: string };
  const override = notification.overrides.delay as { amount?: unknown; unit?: unknown } | undefined;
  if (controls.type === 'timed') {
    if (!controls.cron) return undefined;
    try {
      return nextCronTime(controls.cron, now, context.subscriber?.timezone);
    } catch {
      return undefined;
    }
  }
  if (controls.type === 'dynamic') {
    const value = controls.dynamicKey ? valueAtPath(notification.payload, controls.dynamicKey) : undefined;
    return dynamicTime(value, now);
  }
  if (override && typeof override.amount === 'number' && override.amount >= 0 && isTimeUnit(override.unit)) {
    return new Date(now.getTime() + durationMs(override.amount, override.unit));
  }
  if (typeof controls.amount !== 'number' || !isTimeUnit(controls.unit)) return undefined;
  return new Date(now.getTime() + durationMs(controls.amount, controls.unit));
}

/** An ISO date, or {amount, unit} from now. */
export function dynamicTime(value: unknown, now: Date): Date | undefined {
  if (typeof value === 'string') {
    const at = Date.parse(value);
    return Number.isNaN(at) ? undefined : new Date(at);
  }
  if (value && typeof value === 'object') {
    const { amount, unit } = value as { amount?: unknown; unit?: unknown };
    if (typeof amount === 'number' && amount >= 0 && isTimeUnit(unit)) return new Date(now.getTime() + durationMs(amount, unit));
  }
  return undefined;
}
