import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../config.ts';
import { db } from '../../store/client.ts';
import { keys } from '../../store/keys.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { durationMs } from '../../workflows/durations.ts';
import { valueAtPath } from '../path.ts';
import { dynamicTime } from './delay.ts';

// Throttle: at most `threshold` runs per fixed window for one (workflow, step, subscriber[,
// throttle key value]). The window starts at the first run it counts. The count is an item
// written in the same transaction as the job's decision and conditioned on the count read, so
// concurrent runs and redeliveries count each execution exactly once. Over the threshold the
// step and everything after it are skipped.

/** The counter outlives its window briefly, as in the reference. */
const TTL_BUFFER_S = 30;

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
  const key = keys.throttleWindow(scope, notification._templateId, step.stepId, notification.subscriberId, keyValue);
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const open = Item && Date.parse(Item.windowEnd as string) > now.getTime();
  const count = open ? (Item.count as number) + 1 : 1;
  const end = open ? new Date(Item.windowEnd as string) : windowEnd;
  const counter = {
    Put: {
      TableName: tableName(),
      Item: { ...key, type: 'ThrottleWindow', count, windowEnd: end.toISOString(), ttl: Math.ceil(end.getTime() / 1000) + TTL_BUFFER_S },
      ConditionExpression: Item ? '#c = :read' : 'attribute_not_exists(pk)',
      ...(Item && { ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':read': Item.count } }),
    },
  };
  const output = { throttled: count > threshold, executionCount: count, threshold, throttledUntil: end.toISOString() };
  if (count <= threshold) {
    return { status: 'completed', details: [], job: { stepOutput: output }, also: [counter], after: next };
  }
  const hasLater = notification.jobs.length > context.job.index + 1;
  return {
    status: 'skipped',
    details: hasLater ? [detail(DETAILS.throttled, 'Success', { raw: output }, now)] : [],
    job: { stepOutput: output },
    also: [counter],
    after: { kind: 'end', rest: 'skipped' },
  };
}
