import { idOf } from '../ids.ts';
import type { StoredJob } from './model.ts';

/**
 * The id of the message a job records. Every run of the job while it waits to run makes the same
 * id (its `updatedAt` is the time it was queued, and is not rewritten until the job moves on), so
 * the message is a create that a repeated run finds instead of making a second one. The id's time
 * is when the job was queued: messages still sort by when they were sent.
 */
export function messageIdOf(job: Pick<StoredJob, '_id' | 'updatedAt'>): string {
  return idOf(`${job._id}:${job.updatedAt}`, Date.parse(job.updatedAt));
}
