import { logger } from '../logger.ts';
import { sendMessages } from '../queue/send.ts';
import { parseEventMessage } from './parse-queue-message.ts';
import { fanOut, settleFailedFanOut, type FanOutResult } from './fan-out.ts';
import { scopeOfMessage } from './queue-messages.ts';
import { sendJobs } from './send-jobs.ts';

/**
 * Fans out one trigger until `deadline` (epoch ms), then hands the rest to the next message. On
 * `lastAttempt` (the last receive before the dead-letter queue), a fan-out that still fails
 * settles its recipients (`settleFailedFanOut`) instead of vanishing.
 */
export async function consumeEvent(body: string, deadline: number, lastAttempt = false): Promise<void> {
  const message = parseEventMessage(body);
  if (!message) return;
  const scope = scopeOfMessage(message);
  let result: FanOutResult;
  try {
    result = await fanOut(scope, message, deadline);
  } catch (error) {
    if (!lastAttempt) throw error;
    logger.error('Fan-out failed for good', { transactionId: message.transactionId, error: error as Error });
    const settled = await settleFailedFanOut(scope, message, error);
    await sendJobs(scope, settled.jobs.map((job) => ({ body: job })), true);
    // Recipients nothing could be stored for: the message goes to the dead-letter queue.
    if (!settled.complete) throw error;
    return;
  }
  await sendJobs(scope, result.jobs.map((job) => ({ body: job })), lastAttempt);
  if (result.continuation) await sendMessages('events', [{ body: result.continuation }]);
}
