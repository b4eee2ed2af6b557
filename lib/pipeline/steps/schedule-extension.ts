import type { Decision, JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import type { ExecutionDetail } from '../model.ts';
import { nextWindowStart, withinSchedule } from '../schedule.ts';

// `extendToSchedule` on a delay or digest step (reference: run-job's extension to the next
// available schedule): when its wait ends outside the subscriber's delivery schedule, and the
// workflow is not critical, the job waits again until the schedule's next window opens, at most
// MAX_EXTENSIONS times; then it goes on, with a detail saying why. The new wait is the same
// delayed message as the first (chained when long), and the count is written with the job's
// decision, so a redelivered message finds the job waiting and extends nothing twice.

export const MAX_EXTENSIONS = 3;

export type Extension =
  /** Wait again: the job's decision. */
  | { kind: 'wait'; until: Date; decision: Decision }
  /** Go on now; `details` say why, if anything needs saying (the cap was reached). */
  | { kind: 'go-on'; details: ExecutionDetail[] };

export function scheduleExtension(context: JobContext): Extension {
  const { step, notification, job, choices, subscriber, now } = context;
  if (step.controlValues.extendToSchedule !== true || notification.critical) return { kind: 'go-on', details: [] };
  const schedule = choices.global?.schedule;
  const timezone = subscriber?.timezone ?? null;
  if (withinSchedule(schedule, timezone, now)) return { kind: 'go-on', details: [] };
  const count = job.scheduleExtensionsCount ?? 0;
  if (count >= MAX_EXTENSIONS) return { kind: 'go-on', details: [detail(DETAILS.maxScheduleExtensions, 'Success', {}, now)] };
  const until = nextWindowStart(schedule, timezone, now);
  if (!until || until.getTime() <= now.getTime()) return { kind: 'go-on', details: [] };
  const delayMs = until.getTime() - now.getTime();
  const raw = {
    delayMs,
    nextAvailableTime: until.toISOString(),
    timezone: timezone ?? 'UTC',
    scheduleExtensionsCount: count + 1,
    maxScheduleExtensions: MAX_EXTENSIONS,
  };
  return {
    kind: 'wait',
    until,
    decision: {
      status: 'delayed',
      details: [detail(DETAILS.extendedToSchedule, 'Pending', { raw }, now)],
      job: { delayUntil: until.toISOString(), scheduleExtensionsCount: count + 1, waitedMs: (job.waitedMs ?? 0) + delayMs },
      after: { kind: 'wait', until },
    },
  };
}
