import * as z from '../zod.ts';
import { localeSchema } from '../translations/schemas.ts';

// The organization's settings as the reference's /v1/organizations/settings shows and changes
// them. The locales are organization-wide, not per environment, as the reference keeps them.
// `channelFailover` is ours (docs/differences.md): whether an email or sms send that fails
// transiently moves on to the channel's next integration, for the caller's environment only.

export const organizationSettingsSchema = z
  .object({ removeNovuBranding: z.boolean(), defaultLocale: z.string(), targetLocales: z.array(z.string()), channelFailover: z.boolean() })
  .register(z.globalRegistry, { id: 'OrganizationSettings' });
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

export const patchOrganizationSettingsBody = z.object({
  removeNovuBranding: z.optional(z.boolean()),
  defaultLocale: z.optional(localeSchema),
  targetLocales: z.optional(z.array(localeSchema).check(z.maxLength(100))),
  channelFailover: z.optional(z.boolean()),
});
export type OrganizationSettingsPatch = z.infer<typeof patchOrganizationSettingsBody>;
