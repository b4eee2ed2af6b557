import { mapConcurrently } from '../concurrency.ts';
import { NotFoundError } from '../errors.ts';
import { announce } from '../live/announce.ts';
import { notificationsOfTransaction } from './notification-store.ts';
import type { EnvScope } from '../scope.ts';
import { keys } from '../store/keys.ts';
import { deleteMessage } from '../messages/repository.ts';

// DELETE /v1/messages/transaction/{transactionId}: every message the transaction's jobs recorded
// (of one channel, when given) is deleted, as in the reference. The messages are found through
// the transaction's notifications, whose jobs name them (no message index holds transactionIds),
// so the cost is that of reading the transaction. 404 when there is no such message.

const DELETE_CONCURRENCY = 16;

export async function removeMessagesOfTransaction(scope: EnvScope, transactionId: string, channel?: string): Promise<void> {
  const notifications = await notificationsOfTransaction(scope, transactionId);
  const targets = notifications.flatMap(({ notification }) =>
    notification.jobs
      .filter((job) => job.messageId !== undefined && (channel === undefined || job.type === channel))
      .map((job) => keys.message(scope, notification.subscriberId, job.messageId!)),
  );
  const deleted = (await mapConcurrently(targets, DELETE_CONCURRENCY, (key) => deleteMessage(key))).filter((m) => m !== undefined);
  if (deleted.length === 0) throw new NotFoundError('Invalid transactionId or channel');
  // An inbox open on a socket updates its counts.
  const inboxes = new Set(deleted.filter((m) => m.channel === 'in_app').map((m) => m.subscriberId));
  await mapConcurrently([...inboxes], DELETE_CONCURRENCY, (subscriberId) => announce(scope, subscriberId, { kind: 'counts' }));
}
