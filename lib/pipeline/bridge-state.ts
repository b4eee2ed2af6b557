import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../scope.ts';
import { digestSeries, joinedEvents } from './digest-store.ts';
import type { StoredJob, StoredNotification } from './model.ts';

// The `state` a bridge is sent with a step: every earlier step of the notification, in the shape
// @novu/framework validates each against (its step kind's results schema) before it re-runs the
// workflow up to the step asked for. A step that left nothing (skipped, canceled) still has an
// entry: the framework refuses a state with a step missing.

export interface BridgeStateEntry {
  stepId: string;
  outputs: Record<string, unknown>;
  state: { status: string; error?: string };
}

export async function bridgeState(scope: EnvScope, notification: StoredNotification, job: StoredJob): Promise<BridgeStateEntry[]> {
  const earlier = notification.jobs.slice(0, job.index);
  return Promise.all(
    earlier.map(async (prior) => ({
      stepId: prior.stepId,
      outputs: await outputsOf(scope, notification, prior),
      state: { status: prior.status, ...(prior.error !== undefined && { error: prior.error }) },
    })),
  );
}

async function outputsOf(scope: EnvScope, notification: StoredNotification, job: StoredJob): Promise<Record<string, unknown>> {
  switch (job.type) {
    case 'in_app': {
      const message = job.messageId ? await getMessage(scope, notification.subscriberId, job.messageId) : undefined;
      return {
        seen: message?.seen ?? false,
        read: message?.read ?? false,
        lastSeenDate: message?.lastSeenDate ?? null,
        lastReadDate: message?.lastReadDate ?? null,
      };
    }
    case 'digest': {
      const events = await digestedEvents(scope, notification, job);
      return { events, eventCount: events.length };
    }
    case 'delay':
      // As the framework's delay result has it (the reference: the time since the job began).
      return { duration: job.waitedMs ?? 0 };
    case 'custom':
    case 'throttle':
      return job.stepOutput ?? {};
    default:
      return {};
  }
}

/** The events a digest job covered, as the framework's digest result lists them: the master's first. */
async function digestedEvents(scope: EnvScope, notification: StoredNotification, job: StoredJob) {
  const own = { id: notification.transactionId, time: notification.createdAt, payload: notification.payload };
  if (job.status !== 'completed' || !job.digestWindowId) return job.status === 'skipped' && job.digest ? [own] : [];
  const series = digestSeries(scope, notification, job.stepId, job.digest?.digestValue);
  const joined = await joinedEvents(series, job.digestWindowId);
  const events = [own, ...joined.map((event) => ({ id: event.transactionId, time: event.at, payload: event.payload }))];
  // Oldest first, as the reference sorts them.
  return events.sort((a, b) => a.time.localeCompare(b.time));
}
