import * as z from '../zod.ts';
import { feedQuery } from '../messages/schemas.ts';
import { v1GlobalPreferencesBody, v1WorkflowPreferenceBody } from '../preferences/schemas.ts';
import { createSubscriberBody } from '../subscribers/schemas.ts';

// The inputs of /v1/widgets as the legacy in-app clients send them (`@novu/client` 2.6.6, which
// `@novu/headless` and `<NotificationCenter />` run on): query strings built with
// URLSearchParams (a list comma-joined, booleans as 'true'/'false'), JSON bodies (DELETE too).

const MAX_FEEDS = 100;
const feedRef = z.string().check(z.minLength(1), z.maxLength(256));
/** One feed identifier, or several comma-joined (URLSearchParams joins an array so). */
const feedList = z.pipe(
  z.string().check(z.maxLength(4096)),
  z.pipe(
    z.transform((value: string) => value.split(',').filter((v) => v !== '')),
    z.array(feedRef).check(z.maxLength(MAX_FEEDS)),
  ),
);

export const sessionInitializeBody = z.object({
  applicationIdentifier: z.string().check(z.minLength(1), z.maxLength(256)),
  subscriberId: createSubscriberBody.shape.subscriberId,
  /** The client sends `null` when the app gave no `subscriberHash`. */
  hmacHash: z.optional(z.nullable(z.string().check(z.maxLength(512)))),
  firstName: createSubscriberBody.shape.firstName,
  lastName: createSubscriberBody.shape.lastName,
  email: createSubscriberBody.shape.email,
  phone: createSubscriberBody.shape.phone,
});
export type SessionInitializeInput = z.infer<typeof sessionInitializeBody>;

export const widgetFeedQuery = z.extend(feedQuery, {
  page: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000)), 0),
  feedIdentifier: z.optional(feedList),
});
export type WidgetFeedQuery = z.infer<typeof widgetFeedQuery>;

const countLimit = z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 100);
export const unseenQuery = z.object({ feedIdentifier: z.optional(feedList), seen: z._default(z.stringbool(), false), limit: countLimit });
export const unreadQuery = z.object({ feedIdentifier: z.optional(feedList), read: z._default(z.stringbool(), false), limit: countLimit });
export const countQuery = z.object({
  feedIdentifier: z.optional(feedList),
  seen: z.optional(z.stringbool()),
  read: z.optional(z.stringbool()),
  limit: countLimit,
});

const ID_MESSAGE = 'messageId must be a message id or a list of 1 to 100 of them';
const messageId = z.string().check(z.regex(/^[0-9a-fA-F]{24}$/, ID_MESSAGE));
const messageIds = z.pipe(
  z.union([messageId, z.array(messageId).check(z.minLength(1, ID_MESSAGE), z.maxLength(100, ID_MESSAGE))], { error: ID_MESSAGE }),
  z.transform((ids: string | string[]) => [ids].flat()),
);

export const markFlagsBody = z.object({
  messageId: messageIds,
  mark: z._default(
    z.object({ seen: z.optional(z.boolean()), read: z.optional(z.boolean()) }, { error: 'mark must be an object with seen and/or read' }),
    { seen: true },
  ),
});
export type MarkFlagsInput = z.infer<typeof markFlagsBody>;

export const markAsBody = z.object({
  messageId: messageIds,
  markAs: z.enum(['read', 'seen', 'unread', 'unseen'], { error: 'markAs must be one of the following values: read, seen, unread, unseen' }),
});
export type MarkAsInput = z.infer<typeof markAsBody>;

export const markAllBody = z.object({
  feedId: z.optional(z.union([feedRef, z.array(feedRef).check(z.maxLength(MAX_FEEDS))])),
});

export const messageParams = z.object({ messageId: z.string().check(z.minLength(1), z.maxLength(256)) });

export const bulkDeleteBody = z.object({
  messageIds: z.array(messageId).check(z.minLength(1, ID_MESSAGE), z.maxLength(100, ID_MESSAGE)),
});

export const removeAllQuery = z.object({ feedId: z.optional(feedRef) });

export const actionParams = z.object({
  messageId: z.string().check(z.minLength(1), z.maxLength(256)),
  type: z.enum(['primary', 'secondary'], { error: 'type must be one of the following values: primary, secondary' }),
});
export const actionBody = z.object({
  executedType: z.optional(z.enum(['primary', 'secondary'])),
  status: z.enum(['pending', 'done'], { error: 'status must be one of the following values: pending, done' }),
  payload: z.optional(z.record(z.string(), z.unknown())),
});

export const usageLogBody = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(256)),
  payload: z.optional(z.record(z.string(), z.unknown())),
});

// One path segment, two routes: `{parameter}` is the level on GET and the workflow on PATCH (API
// Gateway names a segment's variable once for all its routes).
export const preferenceLevelParams = z.object({
  parameter: z.enum(['global', 'template'], { error: 'level must be one of the following values: global, template' }),
});
export const workflowPreferenceParams = z.object({ parameter: z.string().check(z.minLength(1), z.maxLength(256)) });
export const workflowPreferenceBody = v1WorkflowPreferenceBody;
/** The client copies `channelType` into `type`; the channel is read from `type`. */
export const globalPreferencesBody = v1GlobalPreferencesBody;
