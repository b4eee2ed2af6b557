import * as z from '../zod.ts';
import { subscriberPathParams } from '../subscribers/schemas.ts';
import {
  countFilters,
  dataFilter,
  filterObject,
  jsonText,
  list,
  listQueryChecks,
  listQueryShape,
  listRequest,
  tag,
  tagFilter,
  type ListRequest,
} from './schemas.ts';

// The inputs of the inbox's API-key view (/v2/subscribers/{subscriberId}/notifications), as
// `@novu/api` sends them: the inbox's own filters (lib/inbox/schemas.ts), plus the context keys
// that say which of the subscriber's inboxes is meant (a session carries them in its token) and
// the reference's plain `tags`. Query keys may repeat (`severity=high&severity=low`).

const MAX_CONTEXT_KEYS = 20;
const contextKey = z.string().check(z.minLength(1), z.maxLength(512));
/** Exactly these keys (`type:id`); none: the messages sent without a context. */
const contextKeys = z.array(contextKey).check(z.maxLength(MAX_CONTEXT_KEYS));

/**
 * A tags filter of a body or a count (the reference's TagsFilter: a list, any of them, or
 * `{and: [{or}, …]}`), or `{}`, what the SDK's untyped `tags` object sends: no tag condition.
 */
const tagsFilter = z.union([
  tagFilter,
  z.pipe(
    z.strictObject({}),
    z.transform((): string[][] => []),
  ),
]);

export const notificationParams = z.extend(subscriberPathParams, {
  notificationId: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const actionParams = z.extend(notificationParams, {
  actionType: z.enum(['primary', 'secondary'], { error: 'actionType must be primary or secondary' }),
});

export const contextQuery = z.object({ contextKeys: z.optional(list(contextKey).check(z.maxLength(MAX_CONTEXT_KEYS))) });

export const listQuery = z
  .looseObject({
    ...listQueryShape,
    /** The reference's name for `tags[]`: any of these tags. */
    tags: z.optional(list(tag)),
    contextKeys: contextQuery.shape.contextKeys,
  })
  .check(listQueryChecks);

/** The list's query as one request (the inbox's), `tags` read as `tags[]`. */
export const listRequestOf = (q: z.infer<typeof listQuery>): ListRequest => listRequest({ ...q, 'tags[]': q['tags[]'] ?? q.tags });

export const countQuery = z.object({
  filters: countFilters(z.extend(filterObject, { tags: z.optional(tagsFilter), contextKeys: z.optional(contextKeys) })),
});

const selection = {
  tags: z.optional(tagsFilter),
  data: z.optional(jsonText(dataFilter, 'data')),
  contextKeys: z.optional(contextKeys),
};

export const bulkBody = z.object(selection);

export const seenBody = z.object({
  ...selection,
  notificationIds: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(100))),
});

// ---- answers (documented in the OpenAPI document; lib/inbox/message-views.ts makes them) ------

const redirect = z.object({ url: z.string(), target: z.optional(z.string()) });
const action = z.object({ label: z.string(), isCompleted: z.boolean(), redirect: z.optional(redirect) });
const nullableDate = z.nullable(z.string());

/** One notification as the inbox shows it (the reference's InboxNotificationDto). */
export const inboxNotificationSchema = z.object({
  id: z.string(),
  transactionId: z.string(),
  subject: z.optional(z.string()),
  body: z.string(),
  to: z.object({
    id: z.string(),
    subscriberId: z.string(),
    firstName: z.optional(z.string()),
    lastName: z.optional(z.string()),
    avatar: z.optional(z.string()),
  }),
  isRead: z.boolean(),
  isSeen: z.boolean(),
  isArchived: z.boolean(),
  isSnoozed: z.boolean(),
  snoozedUntil: nullableDate,
  deliveredAt: z.array(z.string()),
  createdAt: z.string(),
  readAt: nullableDate,
  firstSeenAt: nullableDate,
  archivedAt: nullableDate,
  avatar: z.optional(z.string()),
  primaryAction: z.optional(action),
  secondaryAction: z.optional(action),
  channelType: z.string(),
  tags: z.array(z.string()),
  data: z.optional(z.record(z.string(), z.unknown())),
  redirect: z.optional(redirect),
  workflow: z.object({
    id: z.string(),
    identifier: z.string(),
    name: z.string(),
    critical: z.boolean(),
    tags: z.array(z.string()),
    severity: z.string(),
  }),
  severity: z.string(),
  /** Ours (docs/engagement.md): first open and first click of a tracked link, and the clicks; absent until they happen. */
  opened: z.optional(z.string()),
  clicked: z.optional(z.string()),
  clickCount: z.optional(z.number()),
});

export const notificationListSchema = z.object({
  data: z.array(inboxNotificationSchema),
  hasMore: z.boolean(),
  /** The filter the page was read with, as sent. */
  filter: z.record(z.string(), z.unknown()),
});

export const notificationCountsSchema = z.array(z.object({ count: z.number(), filter: z.record(z.string(), z.unknown()) }));
