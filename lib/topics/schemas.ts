import * as z from '../zod.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { cursorQueryFields } from '../http/cursor-list.ts';

// Shapes of topics and topic subscriptions, of the requests that change them and of the cursor
// lists. Unknown body fields are ignored (zod strips them), as the reference does.

const MAX_KEY_LENGTH = MAX_EXTERNAL_ID_LENGTH;

/** A key a topic can be created with (the same rule as subscriberIds). */
export const topicKeySchema = externalIdSchema('key');

/** Path keys of existing topics are only bounded: a key that cannot exist is simply not found. */
export const topicKeyParams = z.object({ topicKey: z.string().check(z.minLength(1), z.maxLength(MAX_KEY_LENGTH)) });
/** Subscribing creates a missing topic, so its key must be one a topic can have. */
export const newTopicKeyParams = z.object({ topicKey: topicKeySchema });

export const upsertTopicBody = z.object({ key: topicKeySchema, name: z.optional(z.string().check(z.maxLength(1024))) });
export type UpsertTopicInput = z.infer<typeof upsertTopicBody>;

export const MAX_SUBSCRIBERS_PER_REQUEST = 100;
const subscriberIdSchema = z.string().check(z.minLength(1), z.maxLength(MAX_KEY_LENGTH));
export const subscriberIdsBody = z.object({
  subscriberIds: z
    .array(subscriberIdSchema)
    .check(
      z.minLength(1, 'At least one subscriber identifier is required'),
      z.maxLength(MAX_SUBSCRIBERS_PER_REQUEST, `Cannot change more than ${MAX_SUBSCRIBERS_PER_REQUEST} subscriptions at once`),
    ),
});

/**
 * Subscribing: `subscriptions` (a subscriberId, or one with the subscription's own identifier and
 * name) and the older `subscriberIds`, together at most 100.
 */
const subscriptionEntry = z.union([
  subscriberIdSchema,
  z.object({
    identifier: z.string().check(z.minLength(1), z.maxLength(MAX_KEY_LENGTH)),
    subscriberId: subscriberIdSchema,
    name: z.optional(z.string().check(z.maxLength(1024))),
  }),
]);
const TOO_MANY = `Cannot change more than ${MAX_SUBSCRIBERS_PER_REQUEST} subscriptions at once`;
const requested = (b: { subscriberIds?: unknown[] | undefined; subscriptions?: unknown[] | undefined }) =>
  (b.subscriberIds?.length ?? 0) + (b.subscriptions?.length ?? 0);
export const createSubscriptionsBody = z
  .object({
    subscriberIds: z.optional(z.array(subscriberIdSchema).check(z.maxLength(MAX_SUBSCRIBERS_PER_REQUEST, TOO_MANY))),
    subscriptions: z.optional(z.array(subscriptionEntry).check(z.maxLength(MAX_SUBSCRIBERS_PER_REQUEST, TOO_MANY))),
  })
  .check(
    z.refine((b) => requested(b) > 0, {
      message: 'At least one subscription is required in subscriptions or subscriberIds',
      path: ['subscriptions'],
    }),
    z.refine((b) => requested(b) <= MAX_SUBSCRIBERS_PER_REQUEST, { message: TOO_MANY, path: ['subscriptions'] }),
  );
export type CreateSubscriptionsInput = z.infer<typeof createSubscriptionsBody>;

// ---- cursor lists ----------------------------------------------------------------------------

/** Both orders are creation order: ids are time-first, and lists are kept in id order. */
const orderBy = z._default(z.enum(['createdAt', '_id']), 'createdAt');
/** An optional key (or subscriberId) filter, bounded like the path keys. */
const keyFilter = z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_KEY_LENGTH)));

export const subscriberSubscriptionsQuery = z.object({ ...cursorQueryFields, orderBy, key: keyFilter });
export type SubscriberSubscriptionsQuery = z.infer<typeof subscriberSubscriptionsQuery>;

export const listTopicsQuery = z.object({
  ...cursorQueryFields,
  orderBy,
  key: keyFilter,
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
});
export type ListTopicsQuery = z.infer<typeof listTopicsQuery>;

/** A topic's subscriptions are kept in subscriberId order. */
export const topicSubscriptionsQuery = z.object({ ...cursorQueryFields, subscriberId: keyFilter });
export type TopicSubscriptionsQuery = z.infer<typeof topicSubscriptionsQuery>;

// ---- responses -------------------------------------------------------------------------------

export const topicSchema = z
  .object({ _id: z.string(), key: z.string(), name: z.optional(z.string()), createdAt: z.string(), updatedAt: z.string() })
  .register(z.globalRegistry, { id: 'Topic' });
export type Topic = z.infer<typeof topicSchema>;

export const topicSubscriberSchema = z
  .object({
    _id: z.string(),
    subscriberId: z.string(),
    avatar: z.nullable(z.string()),
    firstName: z.nullable(z.string()),
    lastName: z.nullable(z.string()),
    email: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'TopicSubscriber' });
export type TopicSubscriber = z.infer<typeof topicSubscriberSchema>;

export const topicSubscriptionSchema = z
  .object({ _id: z.string(), identifier: z.string(), createdAt: z.string(), topic: topicSchema, subscriber: topicSubscriberSchema })
  .register(z.globalRegistry, { id: 'TopicSubscription' });
export type TopicSubscription = z.infer<typeof topicSubscriptionSchema>;

/** A v2 cursor page: its cursors and the list's total, counted up to 50,000 (lib/http/total-count.ts). */
const cursorPage = {
  next: z.nullable(z.string()),
  previous: z.nullable(z.string()),
  totalCount: z.number(),
  totalCountCapped: z.boolean(),
};

export const subscriberSubscriptionListSchema = z
  .object({ data: z.array(topicSubscriptionSchema), ...cursorPage })
  .register(z.globalRegistry, { id: 'SubscriberSubscriptionList' });
export type SubscriberSubscriptionList = z.infer<typeof subscriberSubscriptionListSchema>;

export const topicListSchema = z.object({ data: z.array(topicSchema), ...cursorPage }).register(z.globalRegistry, { id: 'TopicList' });
export type TopicList = z.infer<typeof topicListSchema>;

export const topicSubscriptionListSchema = z
  .object({ data: z.array(topicSubscriptionSchema), ...cursorPage })
  .register(z.globalRegistry, { id: 'TopicSubscriptionList' });
export type TopicSubscriptionList = z.infer<typeof topicSubscriptionListSchema>;

/** Result of subscribing or unsubscribing a list of subscribers, as the reference reports it. */
export const subscriptionChangeSchema = z
  .object({
    data: z.array(
      z.object({
        _id: z.string(),
        identifier: z.string(),
        name: z.optional(z.string()),
        topic: z.object({ _id: z.string(), key: z.string(), name: z.optional(z.string()) }),
        subscriber: z.extend(topicSubscriberSchema, { createdAt: z.string(), updatedAt: z.string() }),
        createdAt: z.string(),
        updatedAt: z.string(),
      }),
    ),
    meta: z.object({ totalCount: z.number(), successful: z.number(), failed: z.number() }),
    errors: z.optional(
      z.array(
        z.object({ subscriberId: z.string(), code: z.enum(['SUBSCRIBER_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND']), message: z.string() }),
      ),
    ),
  })
  .register(z.globalRegistry, { id: 'TopicSubscriptionsChange' });
export type SubscriptionChange = z.infer<typeof subscriptionChangeSchema>;

export const deleteTopicResponse = z.object({ acknowledged: z.boolean() }).register(z.globalRegistry, { id: 'DeleteTopicResponse' });
