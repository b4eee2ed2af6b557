import { sendMessages } from '../queue/send.ts';
import { parseEventMessage } from './consume.ts';
import { fanOut } from './fan-out.ts';
import { scopeOfMessage } from './queue-messages.ts';

/** Fans out one trigger until `deadline` (epoch ms), then hands the rest to the next message. */
export async function consumeEvent(body: string, deadline: number): Promise<void> {
  const message = parseEventMessage(body);
  if (!message) return;
  const result = await fanOut(scopeOfMessage(message), message, deadline);
  await sendMessages('jobs', result.jobs.map((job) => ({ body: job })));
  if (result.continuation) await sendMessages('events', [{ body: result.continuation }]);
}
