import type { EngagementEvent } from '../../workflows/engagement-events.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { earlierJob, hasHappened } from '../engagement.ts';
import { decideDelay } from './delay.ts';

// A delay with `waitFor` (ours): it waits as any delay, at most its own wait, and ends early once
// the subscriber has seen, read, opened or clicked an earlier step's message. Checked when the
// delay starts (done already: no wait) and whenever its job runs again: a change of the message
// in the table's stream sends the job's message at once (lib/engagement/wake.ts), and the
// runner lets a waiting job with `engagementWait` through before its time only when the event
// happened (run-job.ts). Whatever wakes it, the decision is one conditional write of the
// notification, so a wake and the timed message together never run the next step twice.

interface WaitFor {
  stepId: string;
  event: EngagementEvent;
}

export async function decideEngagementDelay(context: JobContext): Promise<Decision> {
  const { job, scope, notification } = context;
  const waitFor = (context.step.controlValues as { waitFor?: WaitFor }).waitFor;
  if (job.status === 'delayed') {
    const wait = job.engagementWait;
    if (wait && (await hasHappened(scope, notification.subscriberId, wait.messageId, wait.event))) return engaged(context, wait.event);
    return decideDelay(context);
  }
  const messageId = waitFor && earlierJob(notification, job, waitFor.stepId)?.messageId;
  // Nothing to watch (no waitFor, or the earlier step made no message): a plain delay.
  if (!waitFor || !messageId) return decideDelay(context);
  if (await hasHappened(scope, notification.subscriberId, messageId, waitFor.event)) return engaged(context, waitFor.event);
  const decision = decideDelay(context);
  if (decision.status !== 'delayed') return decision;
  return { ...decision, job: { ...decision.job, engagementWait: { messageId, event: waitFor.event } } };
}

function engaged(context: JobContext, event: EngagementEvent): Decision {
  return {
    status: 'completed',
    details: [detail(DETAILS.delayEngaged(event), 'Success', { raw: { event } }, context.now)],
    job: { delayUntil: undefined, engagementWait: undefined },
    after: next,
  };
}
