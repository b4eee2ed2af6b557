import { stepTypeLabel } from '../../components/names.ts';
import type { ActivityJob, ActivityNotification } from './types.ts';

// What a notification's jobs say about it as a whole, and whether the view must keep refreshing.

/** A job in one of these may still change: the timeline keeps polling while any is. */
const WAITING = new Set(['pending', 'queued', 'running', 'delayed']);

export const isWaiting = (job: ActivityJob): boolean => WAITING.has(job.status);

export const stillRunning = (n: ActivityNotification): boolean => (n.jobs ?? []).some(isWaiting);

const CHANNEL_STEPS = new Set(['in_app', 'email', 'sms', 'chat', 'push']);
const isChannelJob = (job: ActivityJob): boolean => CHANNEL_STEPS.has(job.type);

/**
 * The notification in a few words, in the jobs' own vocabulary. While a job waits: the channels
 * already sent and what waits (`In-app sent, digest waiting`: the message is in the inbox while the
 * digest window is open), or the waiting job's status when nothing was sent yet. Once all are
 * final: `failed` if any failed, `merged` if it went into another notification's digest, `partly
 * sent` when a channel step was canceled (an email step for a subscriber without an email) beside
 * one that completed, `completed` if any step ran, else what its first job became (skipped…).
 */
export function overallStatus(n: ActivityNotification): string {
  const jobs = n.jobs ?? [];
  const waiting = jobs.find(isWaiting);
  const sent = [...new Set(jobs.filter((j) => isChannelJob(j) && j.status === 'completed').map((j) => stepTypeLabel(j.type)))];
  if (waiting) return sent.length > 0 ? `${sent.join(', ')} sent, ${stepTypeLabel(waiting.type).toLowerCase()} waiting` : waiting.status;
  if (jobs.some((j) => j.status === 'failed')) return 'failed';
  if (jobs.some((j) => j.status === 'merged')) return 'merged';
  if (sent.length > 0 && jobs.some((j) => isChannelJob(j) && j.status === 'canceled')) return 'partly sent';
  if (jobs.some((j) => j.status === 'completed')) return 'completed';
  return jobs[0]?.status ?? 'pending';
}

/** The channels its jobs deliver on (not its digest or delay steps), each once, in the order of its steps. */
export const jobChannels = (n: ActivityNotification): string[] => [...new Set((n.jobs ?? []).filter(isChannelJob).map((j) => j.type))];
