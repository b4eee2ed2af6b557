import { sendMessages } from '../queue/send.ts';
import { parseJobMessage } from './consume.ts';
import { scopeOfMessage } from './queue-messages.ts';
import { runJob } from './run-job.ts';

/** Runs one job; on `lastAttempt` a job that still fails is stored failed (see run-job.ts). */
export async function consumeJob(body: string, lastAttempt: boolean): Promise<void> {
  const message = parseJobMessage(body);
  if (!message) return;
  const followUps = await runJob(scopeOfMessage(message), message, { lastAttempt });
  if (followUps.length > 0) await sendMessages('jobs', followUps);
}
