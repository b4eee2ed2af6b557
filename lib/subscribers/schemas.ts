import * as z from '../zod.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { PROVIDERS } from '../integrations/catalogue.ts';
import { cursorQueryFields } from '../http/cursor-list.ts';
import type { ProfileField } from './profile-fields.ts';

// Shapes of the subscriber resource and of the requests that create, change, list and delete
// subscribers and their channel credentials. Unknown body fields are ignored (zod strips them).

const MAX_ID_LENGTH = MAX_EXTERNAL_ID_LENGTH;

export const subscriberIdSchema = externalIdSchema('subscriberId');

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

function isTimeZone(value: string): boolean {
  // Newer runtimes also accept offsets such as "+01:00", which are not IANA zone names.
  if (/^[+-]/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// Every profile field may be null, which clears it on PATCH.
const text = z.optional(z.nullable(z.string().check(z.maxLength(1024))));
const profileFields = {
  firstName: text,
  lastName: text,
  email: z.optional(z.nullable(z.email('email must be an email address').check(z.maxLength(254)))),
  phone: text,
  avatar: z.optional(z.nullable(z.string().check(z.maxLength(2048)))),
  locale: z.optional(z.nullable(z.string().check(z.refine(isLocale, 'locale must be a BCP 47 language tag')))),
  timezone: z.optional(z.nullable(z.string().check(z.refine(isTimeZone, 'timezone must be an IANA time zone')))),
  data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
} satisfies Record<ProfileField, z.ZodMiniType>;

export const createSubscriberBody = z.object({ subscriberId: subscriberIdSchema, ...profileFields });
export type CreateSubscriberInput = z.infer<typeof createSubscriberBody>;

export const patchSubscriberBody = z.object(profileFields);
export type SubscriberPatch = z.infer<typeof patchSubscriberBody>;

/** Path ids are only bounded: an id that cannot exist is simply not found. */
export const subscriberPathParams = z.object({ subscriberId: z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH)) });

export const listSubscribersQuery = z.object({
  ...cursorQueryFields,
  email: z.optional(z.string().check(z.minLength(1), z.maxLength(254))),
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  phone: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  /** An exact subscriberId, as the reference matches it: that subscriber (or none), still filtered by the others. */
  subscriberId: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
});
export type ListSubscribersQuery = z.infer<typeof listSubscribersQuery>;

// ---- channel credentials ---------------------------------------------------------------------

const CHAT_PUSH_PROVIDERS = PROVIDERS.filter((p) => p.channel === 'chat' || p.channel === 'push').map((p) => p.id) as [string, ...string[]];
export const chatPushProviderSchema = z.enum(CHAT_PUSH_PROVIDERS, { error: 'providerId must be a valid provider ID' });

export const channelCredentialsSchema = z
  .object({
    webhookUrl: z.optional(z.string()),
    channel: z.optional(z.string()),
    deviceTokens: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(4096)))),
    alertUid: z.optional(z.string()),
    title: z.optional(z.string()),
    imageUrl: z.optional(z.string()),
    state: z.optional(z.string()),
    externalUrl: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'ChannelCredentials' });
export type ChannelCredentials = z.infer<typeof channelCredentialsSchema>;

export const updateCredentialsBody = z.object({
  providerId: chatPushProviderSchema,
  integrationIdentifier: z.optional(z.string().check(z.minLength(1))),
  credentials: channelCredentialsSchema,
});
export type UpdateCredentialsInput = z.infer<typeof updateCredentialsBody>;

/** A subscriber with its channel credentials: the legacy identify and bulk create, a trigger's recipient. */
export const subscriberDefinitionBody = z.extend(createSubscriberBody, { channels: z.optional(z.array(updateCredentialsBody)) });
export type SubscriberDefinitionInput = z.infer<typeof subscriberDefinitionBody>;

export const providerCredentialsParams = z.object({
  subscriberId: z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH)),
  providerId: z.string().check(z.minLength(1), z.maxLength(256)),
});

// ---- responses -------------------------------------------------------------------------------

export const channelSettingsSchema = z
  .object({
    providerId: z.string(),
    integrationIdentifier: z.optional(z.string()),
    credentials: channelCredentialsSchema,
    _integrationId: z.string(),
  })
  .register(z.globalRegistry, { id: 'ChannelSettings' });

const nullableText = z.optional(z.nullable(z.string()));
export const subscriberSchema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    subscriberId: z.string(),
    firstName: nullableText,
    lastName: nullableText,
    email: nullableText,
    phone: nullableText,
    avatar: nullableText,
    locale: nullableText,
    timezone: nullableText,
    data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
    channels: z.optional(z.array(channelSettingsSchema)),
    isOnline: z.optional(z.nullable(z.boolean())),
    lastOnlineAt: z.optional(z.nullable(z.string())),
    deleted: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Subscriber' });

export const subscriberListSchema = z
  .object({
    data: z.array(subscriberSchema),
    next: z.nullable(z.string()),
    previous: z.nullable(z.string()),
    totalCount: z.number(),
    totalCountCapped: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'SubscriberList' });

export const removeSubscriberResponse = z
  .object({ acknowledged: z.boolean(), status: z.literal('deleted') })
  .register(z.globalRegistry, { id: 'RemoveSubscriberResponse' });

// ---- the legacy v1 API (@novu/node 2.x) --------------------------------------------------------

/** The reference's limit of one bulk create. */
export const MAX_BULK_SUBSCRIBERS = 500;

export const bulkCreateSubscribersBody = z.object({
  subscribers: z
    .array(subscriberDefinitionBody)
    .check(
      z.minLength(1, 'subscribers should not be empty'),
      z.maxLength(MAX_BULK_SUBSCRIBERS, `subscribers must contain no more than ${MAX_BULK_SUBSCRIBERS} elements`),
    ),
});
export type BulkCreateSubscribersInput = z.infer<typeof bulkCreateSubscribersBody>;

/** Numbered pages: `page` from 0, `limit` 1 to 100 (the reference's GetSubscribersDto). */
export const subscriberPageQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
});
export type SubscriberPageQuery = z.infer<typeof subscriberPageQuery>;

/**
 * The reference reads `isOnline`; `@novu/node` 2.x sends `online` (which the reference refuses):
 * either is taken, `isOnline` first.
 */
export const onlineStatusBody = z.object({ isOnline: z.optional(z.boolean()), online: z.optional(z.boolean()) }).check(
  z.refine((b) => b.isOnline !== undefined || b.online !== undefined, {
    message: 'isOnline should not be null or undefined',
    path: ['isOnline'],
  }),
);
export type OnlineStatusInput = z.infer<typeof onlineStatusBody>;

export const subscriberPageSchema = z
  .object({ page: z.number(), hasMore: z.boolean(), pageSize: z.number(), data: z.array(subscriberSchema) })
  .register(z.globalRegistry, { id: 'SubscriberPage' });

const subscriberRef = z.object({ subscriberId: z.string() });
export const bulkCreateSubscribersResponse = z
  .object({
    created: z.array(subscriberRef),
    updated: z.array(subscriberRef),
    failed: z.array(z.object({ subscriberId: z.string(), message: z.string() })),
  })
  .register(z.globalRegistry, { id: 'BulkCreateSubscribersResponse' });
