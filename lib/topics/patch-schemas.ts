import * as z from '../zod.ts';
import { MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { topicSubscriberSchema } from './schemas.ts';

// Shapes of the changes to one topic and to one subscription found by its identifier (the SDK's
// UpdateTopicRequestDto, UpdateTopicSubscriptionRequestDto, SubscriptionDetailsResponseDto and
// SubscriptionResponseDto). Topic data and subscription preferences are not kept: sent, they are
// a 422 rather than dropped (docs/differences.md).

const name = z.string().check(z.minLength(1, 'name must not be empty'), z.maxLength(1024));
const notKept = (what: string) => z.optional(z.never({ error: `${what} is not supported by this service` }));

export const patchTopicBody = z.object({ name: z.optional(name), data: z.preprocess((v) => v ?? undefined, notKept('data')) });
export type TopicPatch = z.infer<typeof patchTopicBody>;

export const subscriptionIdentifierParams = z.object({
  topicKey: z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)),
  identifier: z.string().check(z.minLength(1), z.maxLength(2 * MAX_EXTERNAL_ID_LENGTH + 16)),
});

export const patchSubscriptionBody = z.object({ name: z.optional(name), preferences: notKept('preferences') });
export type SubscriptionPatch = z.infer<typeof patchSubscriptionBody>;

// ---- responses -------------------------------------------------------------------------------

export const subscriptionDetailsSchema = z
  .object({ id: z.string(), identifier: z.string(), name: z.optional(z.string()), contextKeys: z.array(z.string()) })
  .register(z.globalRegistry, { id: 'TopicSubscriptionDetails' });
export type SubscriptionDetails = z.infer<typeof subscriptionDetailsSchema>;

export const namedSubscriptionSchema = z
  .object({
    _id: z.string(),
    identifier: z.string(),
    name: z.optional(z.string()),
    topic: z.object({ _id: z.string(), key: z.string(), name: z.optional(z.string()) }),
    subscriber: z.nullable(topicSubscriberSchema),
    contextKeys: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'NamedTopicSubscription' });
export type NamedSubscriptionView = z.infer<typeof namedSubscriptionSchema>;
