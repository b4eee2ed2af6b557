import * as z from '../zod.ts';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { STEP_TYPES } from '../workflows/model.ts';

// GET /v1/execution-details (what `@novu/node` 2.x `executionDetails.get` calls): the execution
// details of one notification's jobs, in the reference's ExecutionDetailsResponse shape.

/** A record id of the reference's form (ours are its lower-case kind). */
const MONGO_ID = /^[0-9a-fA-F]{24}$/;

export const executionDetailsQuery = z.object({
  notificationId: z.string().check(z.regex(MONGO_ID, 'notificationId must be a mongodb id')),
  subscriberId: z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)),
});
export type ExecutionDetailsQuery = z.infer<typeof executionDetailsQuery>;

export const executionDetailV1Schema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    _jobId: z.string(),
    _notificationId: z.string(),
    _notificationTemplateId: z.string(),
    _subscriberId: z.string(),
    _messageId: z.optional(z.string()),
    providerId: z.optional(z.string()),
    transactionId: z.string(),
    channel: z.enum(STEP_TYPES),
    detail: z.string(),
    source: z.enum(['Credentials', 'Internal', 'Payload', 'Webhook']),
    status: z.enum(['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation']),
    isTest: z.boolean(),
    isRetry: z.boolean(),
    raw: z.optional(z.nullable(z.string())),
    createdAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'ExecutionDetailsResponse' });
export type ExecutionDetailV1 = z.infer<typeof executionDetailV1Schema>;

export const executionDetailListV1Schema = z.array(executionDetailV1Schema);
