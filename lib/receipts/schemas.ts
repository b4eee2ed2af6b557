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

/** /v2/inbound-webhooks/delivery-providers/{environmentId}/{integrationId}: ids are only bounded (a wrong one is a 404). */
export const deliveryProviderParams = z.object({
  environmentId: z.string().check(z.minLength(1), z.maxLength(100)),
  integrationId: z.string().check(z.minLength(1), z.maxLength(100)),
});

/** The SDK's WebhookResultDto: the message a receipt was recorded on, and the receipt. */
export const deliveryEventsResponse = z
  .array(
    z.object({
      id: z.string(),
      event: z.object({
        status: z.string(),
        date: z.string(),
        externalId: z.optional(z.string()),
        response: z.optional(z.string()),
        row: z.optional(z.string()),
      }),
    }),
  )
  .register(z.globalRegistry, { id: 'DeliveryEventsRecorded' });
export type DeliveryEvent = z.infer<typeof deliveryEventsResponse>[number];
