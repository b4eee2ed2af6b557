import type { StoredIntegration } from '../integrations/repository.ts';
import type { StoredMessage } from '../messages/model.ts';
import { findMessagesByProviderId, getMessage, messageStateUpdate } from '../messages/repository.ts';
import { detail } from '../pipeline/details.ts';
import { findNotificationById, saveNotification } from '../pipeline/notification-store.ts';
import type { EnvScope } from '../scope.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import type { Receipt, ReceiptChannel } from './model.ts';
import { detailStatusOf, messageAfter } from './statuses.ts';

// One receipt applied: the message is found by the provider's id of it (W7), its job gets an
// execution detail with source `Webhook`, and the message's delivery state moves, both in one
// transaction conditioned on the versions read. The stream emitter turns the message's change
// into its outbound event. A receipt already recorded on the job (its vendor event id) changes
// nothing: vendors redeliver.

/** A lost race with another write is read again and decided again, this many times. */
const ATTEMPTS = 5;

/** A receipt recorded on a message (`id`: the message's). */
export interface RecordedReceipt {
  id: string;
  receipt: Receipt;
}

export async function recordReceipt(
  scope: EnvScope,
  integration: StoredIntegration,
  channel: ReceiptChannel,
  receipt: Receipt,
): Promise<RecordedReceipt[]> {
  const found = await findMessagesByProviderId(scope, integration.providerId, receipt.identifier);
  const recorded: RecordedReceipt[] = [];
  for (const message of found.filter((m) => m.channel === channel)) {
    if (await recordOnMessage(scope, message, receipt, channel)) recorded.push({ id: message._id, receipt });
  }
  return recorded;
}

/** `found` is the message as just read (consistently) by its provider id; only a lost race reads it again. */
async function recordOnMessage(scope: EnvScope, found: StoredMessage, receipt: Receipt, channel: ReceiptChannel): Promise<boolean> {
  const { subscriberId, _id: messageId } = found;
  for (let attempt = 1; ; attempt++) {
    const message = attempt === 1 ? found : await getMessage(scope, subscriberId, messageId);
    const stored = message && (await findNotificationById(scope, message._notificationId, { consistent: true }));
    const job = stored?.notification.jobs.find((j) => j._id === message!._jobId);
    if (!message || !stored || !job) return false;
    if (job.executionDetails.some((d) => d.receiptId === receipt.eventId)) return false;

    const now = new Date();
    const text = receipt.response ? `${receipt.response} - (${receipt.status})` : `Provider reported the message ${receipt.status}`;
    const added = {
      ...detail(
        text,
        detailStatusOf(channel, receipt.status),
        { source: 'Webhook', providerId: message.providerId, messageId, raw: receipt.raw },
        new Date(receipt.date),
      ),
      webhookStatus: receipt.vendorStatus,
      receiptId: receipt.eventId,
    };
    const jobs = stored.notification.jobs.map((j) => (j._id === job._id ? { ...j, executionDetails: [...j.executionDetails, added] } : j));
    const next = messageAfter(message, receipt, now);
    try {
      await saveNotification({ ...stored.notification, jobs }, stored.version, next ? [{ Update: messageStateUpdate(message, next) }] : []);
      return true;
    } catch (error) {
      if (!(error instanceof StaleWriteError) || attempt >= ATTEMPTS) throw error;
    }
  }
}
