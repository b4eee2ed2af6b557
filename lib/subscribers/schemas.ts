import * as z from 'zod';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { PROVIDERS } from '../integrations/providers.ts';
import { cursorQueryFields } from '../store/cursor-query.ts';
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
const text = z.string().max(1024).nullable().optional();
const profileFields = {
  firstName: text,
  lastName: text,
  email: z.email('email must be an email address').max(254).nullable().optional(),
  phone: text,
  avatar: z.string().max(2048).nullable().optional(),
  locale: z.string().refine(isLocale, 'locale must be a BCP 47 language tag').nullable().optional(),
  timezone: z.string().refine(isTimeZone, 'timezone must be an IANA time zone').nullable().optional(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
} satisfies Record<ProfileField, z.ZodType>;

export const createSubscriberBody = z.object({ subscriberId: subscriberIdSchema, ...profileFields });
export type CreateSubscriberInput = z.infer<typeof createSubscriberBody>;

export const patchSubscriberBody = z.object(profileFields);
export type SubscriberPatch = z.infer<typeof patchSubscriberBody>;

/** Path ids are only bounded: an id that cannot exist is simply not found. */
export const subscriberPathParams = z.object({ subscriberId: z.string().min(1).max(MAX_ID_LENGTH) });

export const listSubscribersQuery = z.object({
  ...cursorQueryFields,
  email: z.string().min(1).max(254).optional(),
  name: z.string().min(1).max(1024).optional(),
  phone: z.string().min(1).max(1024).optional(),
});
export type ListSubscribersQuery = z.infer<typeof listSubscribersQuery>;

// ---- channel credentials ---------------------------------------------------------------------

const CHAT_PUSH_PROVIDERS = PROVIDERS.filter((p) => p.channel === 'chat' || p.channel === 'push').map((p) => p.id) as [
  string,
  ...string[],
];
export const chatPushProviderSchema = z.enum(CHAT_PUSH_PROVIDERS, { error: 'providerId must be a valid provider ID' });

export const channelCredentialsSchema = z
  .object({
    webhookUrl: z.string().optional(),
    channel: z.string().optional(),
    deviceTokens: z.array(z.string().min(1).max(4096)).optional(),
    alertUid: z.string().optional(),
    title: z.string().optional(),
    imageUrl: z.string().optional(),
    state: z.string().optional(),
    externalUrl: z.string().optional(),
  })
  .meta({ id: 'ChannelCredentials' });
export type ChannelCredentials = z.infer<typeof channelCredentialsSchema>;

export const updateCredentialsBody = z.object({
  providerId: chatPushProviderSchema,
  integrationIdentifier: z.string().min(1).optional(),
  credentials: channelCredentialsSchema,
});
export type UpdateCredentialsInput = z.infer<typeof updateCredentialsBody>;

export const providerCredentialsParams = z.object({
  subscriberId: z.string().min(1).max(MAX_ID_LENGTH),
  providerId: z.string().min(1).max(256),
});

// ---- responses -------------------------------------------------------------------------------

export const channelSettingsSchema = z
  .object({
    providerId: z.string(),
    integrationIdentifier: z.string().optional(),
    credentials: channelCredentialsSchema,
    _integrationId: z.string(),
  })
  .meta({ id: 'ChannelSettings' });

const nullableText = z.string().nullable().optional();
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
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    channels: z.array(channelSettingsSchema).optional(),
    isOnline: z.boolean().nullable().optional(),
    lastOnlineAt: z.string().nullable().optional(),
    deleted: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Subscriber' });

export const subscriberListSchema = z
  .object({ data: z.array(subscriberSchema), next: z.string().nullable(), previous: z.string().nullable() })
  .meta({ id: 'SubscriberList' });

export const removeSubscriberResponse = z
  .object({ acknowledged: z.boolean(), status: z.literal('deleted') })
  .meta({ id: 'RemoveSubscriberResponse' });
