import { mapConcurrently } from '../concurrency.ts';
import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { DETAILS, detail } from './details.ts';
import { closeWindow, digestSeries } from './digest-store.ts';
import type { StoredJob } from './model.ts';
import { getNotification, notificationsOfTransaction, saveNotification, type VersionedNotification } from './notification-store.ts';
import { markTriggerCanceled } from './trigger-store.ts';

// DELETE /v1/events/trigger/{transactionId}: stops what has not run yet. The trigger is marked
// so a fan-out still in progress creates no more notifications, and every job still waiting
// (pending, queued, delayed) in the transaction's notifications is canceled; a running job
// finishes. True when the transaction exists and something was stopped.

const WAITING: readonly StoredJob['status'][] = ['pending', 'queued', 'delayed'];
const CONCURRENCY = 16;

export async function cancelTrigger(scope: EnvScope, transactionId: string): Promise<boolean> {
  const now = new Date();
  if (!(await markTriggerCanceled(scope, transactionId, now.toISOString()))) return false;
  // The listing (a consistent read) holds each notification whole, with its version: only those
  // with a job still waiting are written (a large fan-out's in-app notifications have none),
  // several at a time; one is read again only when another writer changed it first.
  const listed = await notificationsOfTransaction(scope, transactionId);
  const waitingIn = listed.filter(({ notification }) => notification.jobs.some((j) => WAITING.includes(j.status)));
  const counts = await mapConcurrently(waitingIn, CONCURRENCY, (first) => {
    let known: VersionedNotification | undefined = first;
    return retryOnStaleWrite(async () => {
      const current = known ?? (await getNotification(scope, first.notification));
      known = undefined;
      if (!current) return 0;
      const waiting = current.notification.jobs.filter((j) => WAITING.includes(j.status));
      if (waiting.length === 0) return 0;
      const at = now.toISOString();
      const jobs = current.notification.jobs.map((j) =>
        WAITING.includes(j.status)
          ? {
              ...j,
              status: 'canceled' as const,
              executionDetails: [...j.executionDetails, detail(DETAILS.canceledByRequest, 'Warning', {}, now)],
              updatedAt: at,
            }
          : j,
      );
      await saveNotification({ ...current.notification, jobs, updatedAt: at }, current.version);
      // A canceled digest master closes its window, so later events open a new one.
      for (const job of waiting.filter((j) => j.type === 'digest' && j.digestWindowId)) {
        await closeWindow(digestSeries(scope, current.notification, job.stepId, job.digest?.digestValue), job._id);
      }
      return waiting.length;
    });
  });
  return counts.some((n) => n > 0);
}
