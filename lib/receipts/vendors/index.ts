import type { ReceiptReader } from '../model.ts';
import { mailgunReceipts } from './mailgun.ts';
import { sendgridReceipts } from './sendgrid.ts';
import { sesReceipts } from './ses.ts';
import { twilioReceipts } from './twilio.ts';

// The providers whose delivery receipts this service reads, by provider id.

const READERS: Record<string, ReceiptReader> = {
  ses: sesReceipts,
  sendgrid: sendgridReceipts,
  twilio: twilioReceipts,
  mailgun: mailgunReceipts,
};

export function receiptReader(providerId: string): ReceiptReader | undefined {
  return Object.hasOwn(READERS, providerId) ? READERS[providerId] : undefined;
}
