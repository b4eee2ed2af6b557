import { z } from 'zod';
import { logger } from '../logger.ts';
import { sendMessages } from '../queue/send.ts';
import { fanOut } from './fan-out.ts';
import { scopeOfMessage } from './queue-messages.ts';
import { runJob } from './run-job.ts';

// The two consumers' work per queue message, independent of how the message arrived (Lambda's
// SQS event source in AWS, the local poller here). A message that is not one of ours can never
// succeed: it is logged and dropped instead of retried into the dead-letter queue.

const scope = { organizationId: z.string().min(1), environmentId: z.string().min(1), transactionId: z.string().min(1) };
const eventMessageSchema = z.object({ kind: z.literal('event'), ...scope, cursor: z.string().optional() });
const jobMessageSchema = z.object({ kind: z.literal('job'), ...scope, subscriberId: z.string().min(1), jobIndex: z.number().int().min(0) });

function parse<T>(schema: z.ZodType<T>, body: string): T | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    logger.error('Dropped a malformed queue message', { body: body.slice(0, 500) });
    return undefined;
  }
  return parsed.data;
}

/** Fans out one trigger until `deadline` (epoch ms), then hands the rest to the next message. */
export async function consumeEvent(body: string, deadline: number): Promise<void> {
  const message = parse(eventMessageSchema, body);
  if (!message) return;
  const result = await fanOut(scopeOfMessage(message), message, deadline);
  await sendMessages('jobs', result.jobs.map((job) => ({ body: job })));
  if (result.continuation) await sendMessages('events', [{ body: result.continuation }]);
}

export async function consumeJob(body: string, lastAttempt: boolean): Promise<void> {
  const message = parse(jobMessageSchema, body);
  if (!message) return;
  const followUps = await runJob(scopeOfMessage(message), message, { lastAttempt });
  if (followUps.length > 0) await sendMessages('jobs', followUps);
}
