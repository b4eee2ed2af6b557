import { idOf } from '../ids.ts';
import type { StoredJob } from './model.ts';

/**
 * The id of the message a job records, and its `createdAt`: both from one instant, the time the
 * job was queued. Every run of the job while it waits to run makes the same id (its `updatedAt`
 * is the time it was queued, and is not rewritten until the job moves on), so the message is a
 * create that a repeated run finds instead of making a second one. Lists in id order (the inbox,
 * the feed) are then in `createdAt` order too, to the millisecond.
 */
export function messageStampOf(job: Pick<StoredJob, '_id' | 'updatedAt'>): { _id: string; createdAt: string } {
  const at = Date.parse(job.updatedAt);
  return { _id: idOf(`${job._id}:${job.updatedAt}`, at), createdAt: new Date(at).toISOString() };
}

export function messageIdOf(job: Pick<StoredJob, '_id' | 'updatedAt'>): string {
  return messageStampOf(job)._id;
}
