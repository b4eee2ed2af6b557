import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { durationMs } from '../../workflows/durations.ts';
import { valueAtPath } from '../path.ts';
import { counterWrite, readCounter, type ThrottleSeries } from '../throttle-store.ts';
import { dynamicTime } from './delay.ts';

// Throttle: at most `threshold` runs per fixed window for one (workflow, step, subscriber[,
// throttle key value]). The window starts at the first run it counts. The count is an item
// (throttle-store.ts) written in the same transaction as the job's decision and conditioned on
// the count read, so concurrent runs and redeliveries count each execution exactly once. Over
// the threshold the step and everything after it are skipped.

interface ThrottleControls {
  type?: 'fixed' | 'dynamic';
  amount?: number;
  unit?: 'minutes' | 'hours' | 'days';
  dynamicKey?: string;
  threshold?: number;
  throttleKey?: string;
}

export async function decideThrottle(context: JobContext): Promise<Decision> {
  const { scope, step, notification, now } = context;
  const controls = step.controlValues as ThrottleControls;
  const threshold = controls.threshold ?? 1;

  let windowEnd: Date | undefined;
  if (controls.type === 'dynamic') {
    windowEnd = controls.dynamicKey ? dynamicTime(valueAtPath(notification.payload, controls.dynamicKey), now) : undefined;
    if (windowEnd && windowEnd.getTime() <= now.getTime()) {
      return {
        status: 'failed',
        details: [detail(DETAILS.throttleInPast, 'Failed', { raw: { windowEnd: windowEnd.toISOString() } }, now)],
        job: { error: DETAILS.throttleInPast },
        after: { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure },
      };
    }
  } else if (typeof controls.amount === 'number' && controls.unit) {
    windowEnd = new Date(now.getTime() + durationMs(controls.amount, controls.unit));
  }
  // A throttle without a usable window lets everything through, as the reference does.
  if (!windowEnd) return { status: 'completed', details: [], job: { stepOutput: { throttled: false } }, after: next };

  const keyValue = controls.throttleKey ? String(valueAtPath(notification.payload, controls.throttleKey) ?? '') : '';
  const series: ThrottleSeries = {
    scope,
    workflowDbId: notification._templateId,
    stepId: step.stepId,
    subscriberId: notification.subscriberId,
    keyValue,
  };
  const read = await readCounter(series);
  const open = read && read.windowEnd.getTime() > now.getTime();
  const count = open ? read.count + 1 : 1;
  const end = open ? read.windowEnd : windowEnd;
  const start = open ? read.windowStart : now;
  const counter = counterWrite(series, { count, ...(start && { windowStart: start }), windowEnd: end }, read);
  // Exactly the fields of @novu/framework's throttle result (it refuses any other in a bridge's
  // state, lib/pipeline/bridge-state.ts), so dashboard and code-first steps read the same output.
  const output = {
    throttled: count > threshold,
    executionCount: count,
    threshold,
    ...(start && { windowStart: start.toISOString() }),
  };
  if (count <= threshold) {
    return { status: 'completed', details: [], job: { stepOutput: output }, also: [counter], after: next };
  }
  const hasLater = notification.jobs.length > context.job.index + 1;
  return {
    status: 'skipped',
    details: hasLater ? [detail(DETAILS.throttled, 'Success', { raw: { ...output, windowEnd: end.toISOString() } }, now)] : [],
    job: { stepOutput: output },
    also: [counter],
    after: { kind: 'end', rest: 'skipped' },
  };
}
