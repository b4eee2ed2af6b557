import { currentOutbox } from './outbox.ts';
import { SEND_BATCH, sendBatch, unsentError, type OutgoingMessage, type QueueName } from './send-batch.ts';
import { scheduleWakes, splitLongWaits } from './wake-scheduler.ts';

// Sending to the service's queues, in batches of ten, retrying the entries SQS did not take.
// Inside a consumer's outbox (outbox.ts) the sends of a batch's records go out together. A
// message due later than SQS can hold is scheduled instead (wake-scheduler.ts), where its queue
// takes scheduled wakes.

export { QUEUE_URL_ENV, SEND_BATCH, WAKE_QUEUE_ARN_ENV, type OutgoingMessage, type QueueName } from './send-batch.ts';

export async function sendMessages(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const { later, now } = splitLongWaits(queue, messages);
  await Promise.all([scheduleWakes(queue, later), sendNow(queue, now)]);
}

async function sendNow(queue: QueueName, messages: readonly OutgoingMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const outbox = currentOutbox();
  if (outbox) return outbox.send(queue, messages);
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    const unsent = await sendBatch(queue, messages.slice(i, i + SEND_BATCH));
    if (unsent.size > 0) throw unsentError(queue, unsent);
  }
}
