import * as z from 'zod';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { CHANNELS } from '../integrations/providers.ts';
import { decodePayloadFilter } from './payload-filter.ts';

// Shapes of the inbox endpoints: the messages list and delete, a subscriber's feed, unseen count
// and the mark-as / mark-all changes. Query booleans are the strings "true"/"false".

const channel = z.enum(CHANNELS);
const MAX_TRANSACTION_ID_LENGTH = 1024;
/** DynamoDB's IN takes at most 100 values. */
const MAX_LIST_FILTER = 100;

/**
 * `transactionId=a&transactionId=b` reaches the function as `a,b` (API Gateway joins repeated
 * query values with commas), so a list is split on commas; one id can therefore hold no comma.
 */
const transactionIds = z
  .string()
  .transform((value) => value.split(','))
  .pipe(z.array(z.string().min(1, 'transactionId must not be empty').max(MAX_TRANSACTION_ID_LENGTH)).max(MAX_LIST_FILTER))
  .meta({ description: 'One transactionId, or several (repeated or comma-separated, at most 100)' });

const page = z.coerce.number().int().min(0).default(0);
const subscriberIdFilter = z.string().min(1).max(MAX_EXTERNAL_ID_LENGTH);

export const listMessagesQuery = z.object({
  channel: channel.optional(),
  subscriberId: subscriberIdFilter.optional(),
  transactionId: transactionIds.optional(),
  page,
  limit: z.coerce.number().int().min(1).max(1000).default(10),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;

/** Path ids are only bounded: one that cannot be a message id is simply not found. */
export const messageIdParams = z.object({ messageId: z.string().min(1).max(256) });

const payloadFilter = z
  .string()
  .max(4096)
  .transform((value, ctx) => {
    const decoded = decodePayloadFilter(value);
    if (decoded.ok) return decoded.conditions;
    ctx.addIssue({ code: 'custom', message: decoded.message, input: value });
    return z.NEVER;
  })
  .meta({ description: 'Base64 of a JSON object: only messages whose payload holds each of its values (nested keys by path)' });

export const feedQuery = z.object({
  page,
  limit: z.coerce.number().int().min(1).max(100).default(10),
  read: z.stringbool().optional(),
  seen: z.stringbool().optional(),
  payload: payloadFilter.optional(),
});
export type FeedQuery = z.infer<typeof feedQuery>;

export const unseenCountQuery = z.object({
  seen: z.stringbool().default(false),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
export type UnseenCountQuery = z.infer<typeof unseenCountQuery>;

export const MARK_AS = ['read', 'seen', 'unread', 'unseen'] as const;
export type MarkAs = (typeof MARK_AS)[number];
const markAs = z.enum(MARK_AS, { error: 'markAs must be one of the following values: read, seen, unread, unseen' });

const ID_MESSAGE = 'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds';
/** Message ids have the reference's shape (24 hex characters); any other value is refused as it refuses it. */
const messageId = z.string().regex(/^[0-9a-fA-F]{24}$/, ID_MESSAGE);

export const markAsBody = z.object({
  messageId: z.union([messageId, z.array(messageId).min(1, ID_MESSAGE).max(100, 'messageId must contain no more than 100 elements')], {
    error: (issue) => (issue.input === undefined || issue.input === null ? 'messageId should not be null or undefined' : ID_MESSAGE),
  }),
  markAs,
});
export type MarkAsInput = z.infer<typeof markAsBody>;

const feedIdentifier = z.string().min(1).max(256);
export const markAllBody = z.object({
  markAs,
  feedIdentifier: z.union([feedIdentifier, z.array(feedIdentifier).max(MAX_LIST_FILTER)]).optional(),
});
export type MarkAllInput = z.infer<typeof markAllBody>;

// ---- responses -------------------------------------------------------------------------------

const messageButton = z.object({
  type: z.enum(['primary', 'secondary']),
  content: z.string(),
  resultContent: z.string().optional(),
  url: z.string().optional(),
  target: z.string().optional(),
});

export const messageSchema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    _notificationId: z.string(),
    _subscriberId: z.string(),
    subscriberId: z.string(),
    _templateId: z.string().nullable(),
    templateIdentifier: z.string(),
    _messageTemplateId: z.string().nullable(),
    stepId: z.string(),
    _jobId: z.string(),
    transactionId: z.string(),
    channel,
    providerId: z.string(),
    content: z.string(),
    subject: z.string().optional(),
    title: z.string().optional(),
    avatar: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    cta: z.object({
      type: z.literal('redirect').optional(),
      data: z.object({ url: z.string().optional(), target: z.string().optional() }).optional(),
      action: z
        .object({
          status: z.enum(['pending', 'done']).optional(),
          buttons: z.array(messageButton).optional(),
          result: z
            .object({ payload: z.record(z.string(), z.unknown()).optional(), type: z.enum(['primary', 'secondary']).optional() })
            .optional(),
        })
        .optional(),
    }),
    payload: z.record(z.string(), z.unknown()),
    overrides: z.record(z.string(), z.unknown()),
    tags: z.array(z.string()),
    severity: z.string(),
    critical: z.boolean(),
    contextKeys: z.array(z.string()),
    status: z.enum(['sent', 'error', 'warning']),
    errorId: z.string().optional(),
    errorText: z.string().optional(),
    read: z.boolean(),
    seen: z.boolean(),
    archived: z.boolean(),
    lastReadDate: z.string().optional(),
    lastSeenDate: z.string().optional(),
    deliveredAt: z.array(z.string()),
    snoozedUntil: z.string().optional(),
    email: z.string().optional(),
    phone: z.string().optional(),
    directWebhookUrl: z.string().optional(),
    deviceTokens: z.array(z.string()).optional(),
    identifier: z.string().optional(),
    _feedId: z.string().nullable(),
    actor: z.object({ type: z.enum(['user', 'none']), data: z.string().nullable().optional() }).optional(),
    _actorId: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Message' });

export const messageListSchema = z
  .object({ page: z.number(), totalCount: z.number(), hasMore: z.boolean(), pageSize: z.number(), data: z.array(messageSchema) })
  .meta({ id: 'MessageList' });
export type MessageList = z.infer<typeof messageListSchema>;

export const deleteMessageResponse = z
  .object({ acknowledged: z.boolean(), status: z.literal('deleted') })
  .meta({ id: 'DeleteMessageResponse' });

export const unseenCountSchema = z.object({ count: z.number() }).meta({ id: 'UnseenCount' });

export const markAsResponse = z.array(messageSchema);

/** The number of messages mark-all changed. */
export const markAllResponse = z.number().int();
