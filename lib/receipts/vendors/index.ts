import type { ReceiptReader } from '../model.ts';
import { mailgunReceipts } from './mailgun.ts';
import { postmarkReceipts } from './postmark.ts';
import { resendReceipts } from './resend.ts';
import { sendgridReceipts } from './sendgrid.ts';
import { sesReceipts } from './ses.ts';
import { twilioReceipts } from './twilio.ts';

// The providers whose delivery receipts this service reads, by provider id.

const READERS: Record<string, ReceiptReader> = {
  ses: sesReceipts,
  sendgrid: sendgridReceipts,
  twilio: twilioReceipts,
  mailgun: mailgunReceipts,
  postmark: postmarkReceipts,
  resend: resendReceipts,
};

export function receiptReader(providerId: string): ReceiptReader | undefined {
  return Object.hasOwn(READERS, providerId) ? READERS[providerId] : undefined;
}
