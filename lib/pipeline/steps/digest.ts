import type { EnvScope } from '../../scope.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import {
  closeWindow,
  digestSeries,
  extendWindow,
  joinedPayloads,
  joinWindowWrites,
  lastEventWrite,
  NO_DIGEST_VALUE,
  openWindowWrite,
  readLastEvent,
  readWindow,
  type DigestSeries,
  type DigestWindow,
} from '../digest-store.ts';
import { durationMs, isTimeUnit, nextCronTime } from '../../workflows/durations.ts';
import type { DigestMetadata, ExecutionDetail, StoredJob, StoredNotification } from '../model.ts';
import { valueAtPath } from '../path.ts';
import { overDeferLimit } from './over-defer-limit.ts';
import { scheduleExtension } from './schedule-extension.ts';

// Digest. Events of one (workflow, step, subscriber, digest value) within a window become one
// delivery. The first event opens the window (an item; its job becomes the master and waits);
// later events join it — a transaction that checks the window is still open and adds the
// event's item — and their own chain ends as `merged`. When the master's time comes it deletes
// the window (so no event can join any more; a latecomer opens the next window) and reads the
// events that joined. Every step is a conditional write, so redelivery adds or loses nothing.
// With `extendToSchedule`, a window that closes outside the subscriber's schedule stays open
// until the schedule's next window (schedule-extension.ts). The items are digest-store.ts's.

/** A window whose master is this late is abandoned (its master failed): the next event replaces it. */
const ABANDONED_AFTER_MS = 3_600_000;
/** The activity feed shows at most this many events on the digest job. */
const MAX_EVENTS_ON_JOB = 100;

interface DigestControls {
  type?: 'regular' | 'timed';
  amount?: number;
  unit?: string;
  lookBackWindow?: { amount: number; unit: string };
  cron?: string;
  digestKey?: string;
}

export async function decideDigest(context: JobContext): Promise<Decision> {
  const { scope, step, job, notification, now } = context;
  const controls = step.controlValues as DigestControls;
  const digestValue = controls.digestKey
    ? String(valueAtPath(notification.payload, controls.digestKey) ?? NO_DIGEST_VALUE)
    : NO_DIGEST_VALUE;
  const series = digestSeries(scope, notification, step.stepId, digestValue);

  if (job.status === 'delayed') {
    const extension = scheduleExtension(context);
    if (extension.kind === 'wait') return extend(extension.decision, extension.until, series, job._id);
    return close(context, series, extension.details);
  }

  const metadata = metadataOf(controls, digestValue);
  const window = await readWindow(series);
  if (window && Date.parse(window.closesAt) + ABANDONED_AFTER_MS > now.getTime()) {
    return {
      status: 'merged',
      details: [detail(DETAILS.digestMerged, 'Success', { raw: { masterTransactionId: window.master.transactionId } }, now)],
      job: { digest: metadata, mergedInto: window.master },
      notification: { _digestedNotificationId: window.master.notificationId },
      also: joinWindowWrites(
        series,
        window,
        { transactionId: notification.transactionId, notificationId: notification._id, payload: notification.payload },
        now,
      ),
      after: { kind: 'end', rest: 'merged' },
    };
  }

  const seen = lastEventWrite(series, now);
  if (controls.lookBackWindow && isTimeUnit(controls.lookBackWindow.unit)) {
    const last = await readLastEvent(series);
    const lookBack = durationMs(controls.lookBackWindow.amount, controls.lookBackWindow.unit);
    if (!last || Date.parse(last) < now.getTime() - lookBack) {
      // Nothing recent to digest with: this event goes out at once.
      return {
        status: 'skipped',
        details: [detail(DETAILS.digestSkippedBackoff, 'Success', {}, now)],
        job: { digest: { ...metadata, type: 'backoff' } },
        also: [seen],
        after: next,
      };
    }
  }

  const until = windowEnd(controls, now, context.subscriber?.timezone);
  if (!until) {
    return {
      status: 'failed',
      details: [detail('Invalid digest configuration', 'Failed', { raw: controls }, now)],
      job: { error: 'Invalid digest configuration' },
      after: { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure },
    };
  }
  // A window longer than the maximum defer duration opens nothing: the job fails.
  const overLimit = overDeferLimit(until, now);
  if (overLimit) return overLimit;
  const opened: DigestWindow = {
    windowId: job._id,
    master: { notificationId: notification._id, transactionId: notification.transactionId, jobId: job._id },
    closesAt: until.toISOString(),
  };
  return {
    status: 'delayed',
    details: [detail(DETAILS.digested, 'Pending', { raw: { delay: until.getTime() - now.getTime() } }, now)],
    job: { digest: metadata, delayUntil: until.toISOString(), digestWindowId: job._id },
    // Opened only if no window is open (or the open one is the one just found abandoned).
    also: [openWindowWrite(series, opened, window), seen],
    after: { kind: 'wait', until },
  };
}

/** The window stays open while its master waits for the subscriber's schedule: events still join it. */
async function extend(decision: Decision, until: Date, series: DigestSeries, windowId: string): Promise<Decision> {
  // Closed by an earlier run of this job: what joined it is read when the job runs again.
  await extendWindow(series, windowId, until);
  return decision;
}

/** The master's time has come: close the window, then collect what joined it. */
async function close(context: JobContext, series: DigestSeries, extensionDetails: ExecutionDetail[]): Promise<Decision> {
  const { scope, job, notification, now } = context;
  // Not closed here when an earlier run of this job closed it.
  await closeWindow(series, job._id);
  const events = await digestEventsOf(scope, notification, job);
  return {
    status: 'completed',
    details: [...extensionDetails, detail(DETAILS.digestTriggered, 'Success', { raw: { events: events.length } }, now)],
    job: { digest: { ...job.digest!, events: events.slice(0, MAX_EVENTS_ON_JOB) }, delayUntil: undefined },
    after: next,
  };
}

/** The payloads a completed (or closing) digest master covers: its own first, then those that joined. */
export async function digestEventsOf(
  scope: EnvScope,
  notification: StoredNotification,
  digestJob: StoredJob,
): Promise<Record<string, unknown>[]> {
  if (!digestJob.digestWindowId) return [notification.payload];
  const series = digestSeries(scope, notification, digestJob.stepId, digestJob.digest?.digestValue);
  return [notification.payload, ...(await joinedPayloads(series, digestJob.digestWindowId))];
}

function metadataOf(controls: DigestControls, digestValue: string): DigestMetadata {
  if (controls.type === 'timed')
    return { type: 'timed', digestKey: controls.digestKey, digestValue, timed: { cronExpression: controls.cron } };
  return {
    type: controls.lookBackWindow ? 'backoff' : 'regular',
    ...(controls.digestKey && { digestKey: controls.digestKey }),
    digestValue,
    ...(controls.amount !== undefined && { amount: controls.amount }),
    ...(isTimeUnit(controls.unit) && { unit: controls.unit }),
    ...(controls.lookBackWindow && {
      backoff: true,
      backoffAmount: controls.lookBackWindow.amount,
      ...(isTimeUnit(controls.lookBackWindow.unit) && { backoffUnit: controls.lookBackWindow.unit }),
    }),
  };
}

function windowEnd(controls: DigestControls, now: Date, timezone?: string | null): Date | undefined {
  if (controls.type === 'timed') {
    if (!controls.cron) return undefined;
    try {
      return nextCronTime(controls.cron, now, timezone);
    } catch {
      return undefined;
    }
  }
  if (typeof controls.amount !== 'number' || controls.amount <= 0 || !isTimeUnit(controls.unit)) return undefined;
  return new Date(now.getTime() + durationMs(controls.amount, controls.unit));
}
