import type { ActivityJob, ActivityNotification } from './types.ts';

// What a notification's jobs say about it as a whole, and whether the view must keep refreshing.

/** A job in one of these may still change: the timeline keeps polling while any is. */
const WAITING = new Set(['pending', 'queued', 'running', 'delayed']);

export const isWaiting = (job: ActivityJob): boolean => WAITING.has(job.status);

export const stillRunning = (n: ActivityNotification): boolean => (n.jobs ?? []).some(isWaiting);

/**
 * One word for the notification: the status of the first job still waiting (a digest window open
 * reads `delayed`); once all are final, `failed` if any failed, `merged` if it went into another
 * notification's digest, `completed` if any step ran, else what its first job became (skipped…).
 */
export function overallStatus(n: ActivityNotification): string {
  const jobs = n.jobs ?? [];
  const waiting = jobs.find(isWaiting);
  if (waiting) return waiting.status;
  for (const status of ['failed', 'merged', 'completed']) if (jobs.some((j) => j.status === status)) return status;
  return jobs[0]?.status ?? 'pending';
}

/** The channels its jobs run, each once, in the order of its steps. */
export const jobChannels = (n: ActivityNotification): string[] => [...new Set((n.jobs ?? []).map((j) => j.type))];
