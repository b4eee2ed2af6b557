import type { ReceiptReader } from '../model.ts';
import { brevoReceipts } from './brevo.ts';
import { infobipReceipts } from './infobip.ts';
import { mailgunReceipts } from './mailgun.ts';
import { mailjetReceipts } from './mailjet.ts';
import { plivoReceipts } from './plivo.ts';
import { postmarkReceipts } from './postmark.ts';
import { resendReceipts } from './resend.ts';
import { sendgridReceipts } from './sendgrid.ts';
import { sesReceipts } from './ses.ts';
import { telnyxReceipts } from './telnyx.ts';
import { twilioReceipts } from './twilio.ts';
import { vonageReceipts } from './vonage.ts';

// The providers whose delivery receipts this service reads, by provider id (Brevo's email
// provider keeps its former id, `sendinblue`, as the reference's does).

const READERS: Record<string, ReceiptReader> = {
  ses: sesReceipts,
  sendgrid: sendgridReceipts,
  twilio: twilioReceipts,
  sendinblue: brevoReceipts,
  telnyx: telnyxReceipts,
  'infobip-sms': infobipReceipts,
  plivo: plivoReceipts,
  nexmo: vonageReceipts,
  mailgun: mailgunReceipts,
  mailjet: mailjetReceipts,
  postmark: postmarkReceipts,
  resend: resendReceipts,
};

export function receiptReader(providerId: string): ReceiptReader | undefined {
  return Object.hasOwn(READERS, providerId) ? READERS[providerId] : undefined;
}
