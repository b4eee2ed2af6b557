import * as z from '../zod.ts';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { CHANNELS } from '../integrations/catalogue.ts';
import { decodePayloadFilter } from './payload-filter.ts';

// Shapes of the inbox endpoints: the messages list and delete, a subscriber's feed, unseen count
// and the mark-as / mark-all changes. Query booleans are the strings "true"/"false".

const channel = z.enum(CHANNELS);
const MAX_TRANSACTION_ID_LENGTH = 1024;
/** DynamoDB's IN takes at most 100 values. */
const MAX_LIST_FILTER = 100;

const splitOnCommas = z.pipe(
  z.string(),
  z.transform((value) => value.split(',')),
);
const transactionId = z.string().check(z.minLength(1, 'transactionId must not be empty'), z.maxLength(MAX_TRANSACTION_ID_LENGTH));
/**
 * `transactionId=a&transactionId=b` reaches the function as `a,b` (API Gateway joins repeated
 * query values with commas), so a list is split on commas; one id can therefore hold no comma.
 */
const transactionIds = z
  .pipe(splitOnCommas, z.array(transactionId).check(z.maxLength(MAX_LIST_FILTER)))
  .register(z.globalRegistry, { description: 'One transactionId, or several (repeated or comma-separated, at most 100)' });

const page = z._default(z.coerce.number().check(z.int(), z.gte(0)), 0);
const subscriberIdFilter = z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH));

export const listMessagesQuery = z.object({
  channel: z.optional(channel),
  subscriberId: z.optional(subscriberIdFilter),
  transactionId: z.optional(transactionIds),
  page,
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 10),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;

/** DELETE /v1/messages/transaction/{transactionId}: `tool` is in the SDK's enum; no message has it. */
export const transactionMessagesParams = z.object({ transactionId });
export const transactionMessagesQuery = z.object({ channel: z.optional(z.enum([...CHANNELS, 'tool'])) });

/** Path ids are only bounded: one that cannot be a message id is simply not found. */
export const messageIdParams = z.object({ messageId: z.string().check(z.minLength(1), z.maxLength(256)) });

const payloadFilter = z
  .pipe(
    z.string().check(z.maxLength(4096)),
    z.transform((value, ctx) => {
      const decoded = decodePayloadFilter(value);
      if (decoded.ok) return decoded.conditions;
      // zod/mini's transform context has no addIssue: push the issue classic's addIssue pushes.
      ctx.issues.push({ code: 'custom', message: decoded.message, input: value });
      return z.NEVER;
    }),
  )
  .register(z.globalRegistry, {
    description: 'Base64 of a JSON object: only messages whose payload holds each of its values (nested keys by path)',
  });

export const feedQuery = z.object({
  page,
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
  read: z.optional(z.stringbool()),
  seen: z.optional(z.stringbool()),
  payload: z.optional(payloadFilter),
});
export type FeedQuery = z.infer<typeof feedQuery>;

export const unseenCountQuery = z.object({
  seen: z._default(z.stringbool(), false),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 100),
});
export type UnseenCountQuery = z.infer<typeof unseenCountQuery>;

export const MARK_AS = ['read', 'seen', 'unread', 'unseen'] as const;
export type MarkAs = (typeof MARK_AS)[number];
const markAs = z.enum(MARK_AS, { error: 'markAs must be one of the following values: read, seen, unread, unseen' });

const ID_MESSAGE = 'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds';
/** Message ids have the reference's shape (24 hex characters); any other value is refused as it refuses it. */
const messageId = z.string().check(z.regex(/^[0-9a-fA-F]{24}$/, ID_MESSAGE));

const messageIds = z
  .array(messageId)
  .check(z.minLength(1, ID_MESSAGE), z.maxLength(100, 'messageId must contain no more than 100 elements'));

export const markAsBody = z.object({
  messageId: z.union([messageId, messageIds], {
    error: (issue) => (issue.input === undefined || issue.input === null ? 'messageId should not be null or undefined' : ID_MESSAGE),
  }),
  markAs,
});
export type MarkAsInput = z.infer<typeof markAsBody>;

/**
 * The legacy markAs's ids: one id, a comma-separated list (the reference splits a string on
 * commas) or an array, of the same 24-hex shape; at most 100.
 */
const legacyMessageIds = z.pipe(
  z.union([z.string(), z.array(z.string())], {
    error: (issue) => (issue.input === undefined || issue.input === null ? 'messageId should not be null or undefined' : ID_MESSAGE),
  }),
  z.pipe(
    z.transform((value: string | string[]) => [value].flat().flatMap((id) => id.split(','))),
    z.array(messageId).check(z.minLength(1, ID_MESSAGE), z.maxLength(100, 'messageId must contain no more than 100 elements')),
  ),
);

export const markFlagsBody = z.object({
  messageId: legacyMessageIds,
  mark: z.object(
    { seen: z.optional(z.boolean()), read: z.optional(z.boolean()) },
    { error: 'mark must be an object with seen and/or read' },
  ),
});
export type MarkFlagsInput = z.infer<typeof markFlagsBody>;

export const messageActionParams = z.object({
  subscriberId: subscriberIdFilter,
  messageId: z.string().check(z.minLength(1), z.maxLength(256)),
  type: z.enum(['primary', 'secondary'], { error: 'type must be one of the following values: primary, secondary' }),
});

export const messageActionBody = z.object({
  status: z.enum(['pending', 'done'], { error: 'status must be one of the following values: pending, done' }),
  payload: z.optional(z.record(z.string(), z.unknown())),
});
export type MessageActionInput = z.infer<typeof messageActionBody>;

const feedIdentifier = z.string().check(z.minLength(1), z.maxLength(256));
export const markAllBody = z.object({
  markAs,
  feedIdentifier: z.optional(z.union([feedIdentifier, z.array(feedIdentifier).check(z.maxLength(MAX_LIST_FILTER))])),
});
export type MarkAllInput = z.infer<typeof markAllBody>;

// ---- responses -------------------------------------------------------------------------------

const messageButton = z.object({
  type: z.enum(['primary', 'secondary']),
  content: z.string(),
  resultContent: z.optional(z.string()),
  url: z.optional(z.string()),
  target: z.optional(z.string()),
});

export const messageSchema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    _notificationId: z.string(),
    _subscriberId: z.string(),
    subscriberId: z.string(),
    _templateId: z.nullable(z.string()),
    templateIdentifier: z.string(),
    _messageTemplateId: z.nullable(z.string()),
    stepId: z.string(),
    _jobId: z.string(),
    transactionId: z.string(),
    channel,
    providerId: z.string(),
    content: z.string(),
    subject: z.optional(z.string()),
    title: z.optional(z.string()),
    avatar: z.optional(z.string()),
    data: z.optional(z.record(z.string(), z.unknown())),
    cta: z.object({
      type: z.optional(z.literal('redirect')),
      data: z.optional(z.object({ url: z.optional(z.string()), target: z.optional(z.string()) })),
      action: z.optional(
        z.object({
          status: z.optional(z.enum(['pending', 'done'])),
          buttons: z.optional(z.array(messageButton)),
          result: z.optional(
            z.object({ payload: z.optional(z.record(z.string(), z.unknown())), type: z.optional(z.enum(['primary', 'secondary'])) }),
          ),
        }),
      ),
    }),
    payload: z.record(z.string(), z.unknown()),
    overrides: z.record(z.string(), z.unknown()),
    tags: z.array(z.string()),
    severity: z.string(),
    critical: z.boolean(),
    contextKeys: z.array(z.string()),
    status: z.enum(['sent', 'error', 'warning']),
    errorId: z.optional(z.string()),
    errorText: z.optional(z.string()),
    read: z.boolean(),
    seen: z.boolean(),
    archived: z.boolean(),
    lastReadDate: z.optional(z.string()),
    lastSeenDate: z.optional(z.string()),
    deliveredAt: z.array(z.string()),
    snoozedUntil: z.optional(z.string()),
    email: z.optional(z.string()),
    phone: z.optional(z.string()),
    directWebhookUrl: z.optional(z.string()),
    deviceTokens: z.optional(z.array(z.string())),
    identifier: z.optional(z.string()),
    deliveryStatus: z.optional(z.string()),
    deliveryStatusAt: z.optional(z.string()),
    /** Ours (docs/engagement.md): first open, first click, clicks, the latest click and its URL, the tracked links' original URLs. */
    opened: z.optional(z.string()),
    clicked: z.optional(z.string()),
    clickCount: z.optional(z.number()),
    lastClickedAt: z.optional(z.string()),
    lastClickedUrl: z.optional(z.string()),
    links: z.optional(z.array(z.string())),
    _feedId: z.nullable(z.string()),
    actor: z.optional(z.object({ type: z.enum(['user', 'none']), data: z.optional(z.nullable(z.string())) })),
    _actorId: z.optional(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Message' });

export const messageListSchema = z
  .object({ page: z.number(), totalCount: z.number(), hasMore: z.boolean(), pageSize: z.number(), data: z.array(messageSchema) })
  .register(z.globalRegistry, { id: 'MessageList' });
export type MessageList = z.infer<typeof messageListSchema>;

export const deleteMessageResponse = z
  .object({ acknowledged: z.boolean(), status: z.literal('deleted') })
  .register(z.globalRegistry, { id: 'DeleteMessageResponse' });

export const unseenCountSchema = z.object({ count: z.number() }).register(z.globalRegistry, { id: 'UnseenCount' });

export const markAsResponse = z.array(messageSchema);

/** The number of messages mark-all changed. */
export const markAllResponse = z.number().check(z.int());
