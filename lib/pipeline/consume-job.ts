import { parseJobMessage } from './parse-queue-message.ts';
import { scopeOfMessage } from './queue-messages.ts';
import { runJob } from './run-job.ts';
import { sendFollowUps } from './send-jobs.ts';
import { decideStep } from './steps/index.ts';

/**
 * Runs one job; on `lastAttempt` a job that still fails is stored failed (see run-job.ts), and so
 * is a next job whose message cannot be sent (send-jobs.ts).
 */
export async function consumeJob(body: string, lastAttempt: boolean): Promise<void> {
  const message = parseJobMessage(body);
  if (!message) return;
  const scope = scopeOfMessage(message);
  await sendFollowUps(scope, await runJob(scope, message, { lastAttempt, decide: decideStep }), lastAttempt);
}
