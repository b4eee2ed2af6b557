import type { DetailStatus } from '../pipeline/model.ts';
import type { StoredMessage } from '../messages/model.ts';
import type { Receipt, ReceiptChannel } from './model.ts';

// The reference's reading of a receipt status (its create-execution-details use case): the
// execution detail's status per channel. Beyond the reference, a receipt also moves the
// message's delivery state, never backwards: a late `delivered` after an `opened` changes
// nothing, and a failure stays.

const DETAIL_STATUS: Record<ReceiptChannel, Record<string, DetailStatus>> = {
  email: {
    opened: 'Success',
    sent: 'Success',
    delivered: 'Success',
    clicked: 'Success',
    rejected: 'Failed',
    bounced: 'Failed',
    dropped: 'Failed',
    blocked: 'Failed',
    spam: 'Failed',
    unsubscribed: 'Failed',
    deferred: 'Pending',
  },
  sms: {
    delivered: 'Success',
    accepted: 'Success',
    sent: 'Success',
    created: 'Pending',
    sending: 'Pending',
    queued: 'Queued',
    failed: 'Failed',
    undelivered: 'Failed',
  },
};

export function detailStatusOf(channel: ReceiptChannel, status: string): DetailStatus {
  return DETAIL_STATUS[channel][status] ?? 'Pending';
}

/** Receipts that say the message never reached its recipient: the message becomes `error`. */
const UNDELIVERED = new Set(['rejected', 'bounced', 'dropped', 'blocked', 'failed', 'undelivered']);

/** How far along a delivery state is; a receipt moves a message only forward. */
function rank(status: string | undefined): number {
  if (status === undefined) return -1;
  if (UNDELIVERED.has(status)) return 100;
  return ({ sent: 1, accepted: 1, delivered: 2, opened: 3, clicked: 4, spam: 5, unsubscribed: 5 } as Record<string, number>)[status] ?? 0;
}

/** The message as the receipt leaves it; undefined when the receipt does not move it. */
export function messageAfter(message: StoredMessage, receipt: Receipt, now: Date): StoredMessage | undefined {
  const current = rank(message.deliveryStatus);
  if (current === 100 || rank(receipt.status) < current || receipt.status === message.deliveryStatus) return undefined;
  const next: StoredMessage = { ...message, deliveryStatus: receipt.status, deliveryStatusAt: receipt.date, updatedAt: now.toISOString() };
  if (UNDELIVERED.has(receipt.status)) {
    next.status = 'error';
    next.errorId = `provider_${receipt.status}`;
    next.errorText = receipt.response ?? `The provider reported the message ${receipt.status}`;
  }
  return next;
}
