import * as z from '../zod.ts';

// The receipt route's path and answer. The body is read by each vendor's reader (vendors/*.ts):
// it is checked against the vendor's signature as the exact text that came.

const id = z.string().check(z.regex(/^[0-9a-f]{24}$/, 'must be an id of 24 hexadecimal characters'));

export const receiptParams = z.object({
  organizationId: id,
  environmentId: id,
  channel: z.enum(['email', 'sms']),
  providerIdOrIntegrationId: z.string().check(z.minLength(1), z.maxLength(100)),
});

/** The reference's answer: each message the receipts were recorded on, with the status recorded. */
export const receiptResponse = z
  .array(z.object({ id: z.string(), event: z.string() }))
  .register(z.globalRegistry, { id: 'ReceiptsRecorded' });
