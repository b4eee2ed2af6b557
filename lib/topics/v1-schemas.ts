import * as z from '../zod.ts';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { topicKeySchema } from './schemas.ts';

// The older topics API (/v1/topics, what `@novu/node` 2.x calls): its requests and its view of a
// topic, which names the topic's subscribers by subscriberId. Unknown body fields are ignored.

const name = z.string().check(z.maxLength(1024));

export const createTopicV1Body = z.object({ key: topicKeySchema, name });
export type CreateTopicV1Input = z.infer<typeof createTopicV1Body>;

export const renameTopicV1Body = z.object({ name });

/**
 * The reference sets no bound; ours keeps a request's transactions (one per subscriber) well
 * inside the API's time limit.
 */
export const MAX_V1_SUBSCRIBERS_PER_REQUEST = 1000;
export const topicSubscribersV1Body = z.object({
  subscribers: z
    .array(z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)))
    .check(z.maxLength(MAX_V1_SUBSCRIBERS_PER_REQUEST, `Cannot change more than ${MAX_V1_SUBSCRIBERS_PER_REQUEST} subscriptions at once`)),
});

/** Path ids of existing records are only bounded: one that cannot exist is simply not found. */
const pathId = z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH));
export const topicSubscriberV1Params = z.object({ topicKey: pathId, externalSubscriberId: pathId });

/** The reference's page size is at most 10 (it answers 400 beyond). */
export const MAX_TOPICS_PAGE_SIZE = 10;
export const listTopicsV1Query = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  pageSize: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_TOPICS_PAGE_SIZE, `pageSize must not be larger than ${MAX_TOPICS_PAGE_SIZE}`)),
    MAX_TOPICS_PAGE_SIZE,
  ),
  key: z.optional(pathId),
});
export type ListTopicsV1Query = z.infer<typeof listTopicsV1Query>;

// ---- responses -------------------------------------------------------------------------------

export const topicV1Schema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    key: z.string(),
    name: z.optional(z.string()),
    subscribers: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'TopicV1' });
export type TopicV1 = z.infer<typeof topicV1Schema>;

export const createdTopicV1Schema = z.object({ _id: z.string(), key: z.string() }).register(z.globalRegistry, { id: 'CreatedTopicV1' });

export const topicListV1Schema = z
  .object({ data: z.array(topicV1Schema), page: z.number(), pageSize: z.number(), totalCount: z.number() })
  .register(z.globalRegistry, { id: 'TopicListV1' });
export type TopicListV1 = z.infer<typeof topicListV1Schema>;

export const addedTopicSubscribersV1Schema = z
  .object({ succeeded: z.array(z.string()), failed: z.optional(z.object({ notFound: z.optional(z.array(z.string())) })) })
  .register(z.globalRegistry, { id: 'AddedTopicSubscribersV1' });
export type AddedTopicSubscribersV1 = z.infer<typeof addedTopicSubscribersV1Schema>;

export const topicSubscriberV1Schema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    _subscriberId: z.string(),
    _topicId: z.string(),
    topicKey: z.string(),
    externalSubscriberId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'TopicSubscriberV1' });
export type TopicSubscriberV1 = z.infer<typeof topicSubscriberV1Schema>;
