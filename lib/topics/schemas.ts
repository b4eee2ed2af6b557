import * as z from 'zod';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { cursorQueryFields } from '../store/cursor-query.ts';

// Shapes of topics and topic subscriptions, of the requests that change them and of the cursor
// lists. Unknown body fields are ignored (zod strips them), as the reference does.

const MAX_KEY_LENGTH = MAX_EXTERNAL_ID_LENGTH;

/** A key a topic can be created with (the same rule as subscriberIds). */
export const topicKeySchema = externalIdSchema('key');

/** Path keys of existing topics are only bounded: a key that cannot exist is simply not found. */
export const topicKeyParams = z.object({ topicKey: z.string().min(1).max(MAX_KEY_LENGTH) });
/** Subscribing creates a missing topic, so its key must be one a topic can have. */
export const newTopicKeyParams = z.object({ topicKey: topicKeySchema });

export const upsertTopicBody = z.object({ key: topicKeySchema, name: z.string().max(1024).optional() });
export type UpsertTopicInput = z.infer<typeof upsertTopicBody>;

export const MAX_SUBSCRIBERS_PER_REQUEST = 100;
export const subscriberIdsBody = z.object({
  subscriberIds: z
    .array(z.string().min(1).max(MAX_KEY_LENGTH))
    .min(1, 'At least one subscriber identifier is required')
    .max(MAX_SUBSCRIBERS_PER_REQUEST, `Cannot change more than ${MAX_SUBSCRIBERS_PER_REQUEST} subscriptions at once`),
});

// ---- cursor lists ----------------------------------------------------------------------------

/** Both orders are creation order: ids are time-first, and lists are kept in id order. */
const orderBy = z.enum(['createdAt', '_id']).default('createdAt');

export const subscriberSubscriptionsQuery = z.object({ ...cursorQueryFields, orderBy, key: z.string().min(1).max(MAX_KEY_LENGTH).optional() });
export type SubscriberSubscriptionsQuery = z.infer<typeof subscriberSubscriptionsQuery>;

export const listTopicsQuery = z.object({
  ...cursorQueryFields,
  orderBy,
  key: z.string().min(1).max(MAX_KEY_LENGTH).optional(),
  name: z.string().min(1).max(1024).optional(),
});
export type ListTopicsQuery = z.infer<typeof listTopicsQuery>;

/** A topic's subscriptions are kept in subscriberId order. */
export const topicSubscriptionsQuery = z.object({ ...cursorQueryFields, subscriberId: z.string().min(1).max(MAX_KEY_LENGTH).optional() });
export type TopicSubscriptionsQuery = z.infer<typeof topicSubscriptionsQuery>;

// ---- responses -------------------------------------------------------------------------------

export const topicSchema = z
  .object({ _id: z.string(), key: z.string(), name: z.string().optional(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'Topic' });
export type Topic = z.infer<typeof topicSchema>;

export const topicSubscriberSchema = z
  .object({
    _id: z.string(),
    subscriberId: z.string(),
    avatar: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: 'TopicSubscriber' });
export type TopicSubscriber = z.infer<typeof topicSubscriberSchema>;

export const topicSubscriptionSchema = z
  .object({ _id: z.string(), createdAt: z.string(), topic: topicSchema, subscriber: topicSubscriberSchema })
  .meta({ id: 'TopicSubscription' });
export type TopicSubscription = z.infer<typeof topicSubscriptionSchema>;

const cursorPage = { next: z.string().nullable(), previous: z.string().nullable() };

export const subscriberSubscriptionListSchema = z
  .object({
    data: z.array(topicSubscriptionSchema),
    ...cursorPage,
    totalCount: z.number(),
    totalCountCapped: z.boolean(),
  })
  .meta({ id: 'SubscriberSubscriptionList' });
export type SubscriberSubscriptionList = z.infer<typeof subscriberSubscriptionListSchema>;

export const topicListSchema = z.object({ data: z.array(topicSchema), ...cursorPage }).meta({ id: 'TopicList' });
export type TopicList = z.infer<typeof topicListSchema>;

export const topicSubscriptionListSchema = z
  .object({ data: z.array(topicSubscriptionSchema), ...cursorPage })
  .meta({ id: 'TopicSubscriptionList' });
export type TopicSubscriptionList = z.infer<typeof topicSubscriptionListSchema>;

/** Result of subscribing or unsubscribing a list of subscribers, as the reference reports it. */
export const subscriptionChangeSchema = z
  .object({
    data: z.array(
      z.object({
        _id: z.string(),
        topic: z.object({ _id: z.string(), key: z.string(), name: z.string().optional() }),
        subscriber: topicSubscriberSchema.extend({ createdAt: z.string(), updatedAt: z.string() }),
        createdAt: z.string(),
        updatedAt: z.string(),
      }),
    ),
    meta: z.object({ totalCount: z.number(), successful: z.number(), failed: z.number() }),
    errors: z
      .array(z.object({ subscriberId: z.string(), code: z.enum(['SUBSCRIBER_NOT_FOUND', 'SUBSCRIPTION_NOT_FOUND']), message: z.string() }))
      .optional(),
  })
  .meta({ id: 'TopicSubscriptionsChange' });
export type SubscriptionChange = z.infer<typeof subscriptionChangeSchema>;

export const deleteTopicResponse = z.object({ acknowledged: z.boolean() }).meta({ id: 'DeleteTopicResponse' });
