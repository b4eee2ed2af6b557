import type { StoredIntegration } from '../integrations/repository.ts';

// What a provider's delivery receipt says, once its vendor's format is read (vendors/*.ts), and
// what a vendor's reader is given: the request as it came, for the signature check.

export type ReceiptChannel = 'email' | 'sms';

export interface Receipt {
  /** The vendor's id of this event (or what identifies it: a redelivery carries the same). */
  eventId: string;
  /** The provider's id of the message, as the send stored it (`identifier`). */
  identifier: string;
  /** In the reference's words (statuses.ts): `delivered`, `opened`, `bounced`, `undelivered`, ... */
  status: string;
  /** The vendor's own word for it. */
  vendorStatus: string;
  /** When the vendor says it happened (ISO 8601). */
  date: string;
  /** The vendor's explanation (an SMTP answer, an error code), if any. */
  response?: string;
  /** The vendor's event as it came. */
  raw: unknown;
}

export interface ReceiptRequest {
  integration: StoredIntegration;
  rawBody: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The URL the vendor called. */
  url: string;
}

export interface ReceiptReader {
  /**
   * Checks the vendor's signature and reads the receipts the request carries; throws
   * UnauthorizedError when the signature is missing or wrong (or no key to check it is set).
   */
  read(request: ReceiptRequest): Promise<Receipt[]>;
}
