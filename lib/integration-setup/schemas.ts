import * as z from '../zod.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { integrationSchema } from '../integrations/schemas.ts';

// Shapes of the integration set-up operations of `@novu/api` 3.19 (auto-configure,
// webhook/configure, mobile-link) and of the Telegram updates route webhook/configure points at.

export const integrationIdentifierParams = z.object({
  integrationIdentifier: z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)),
});

export const autoConfigureResponse = z
  .object({ success: z.boolean(), message: z.optional(z.string()), integration: z.optional(integrationSchema) })
  .register(z.globalRegistry, { id: 'AutoConfigureIntegrationResponse' });

export const configureWebhookResponse = z
  .object({ webhookUrl: z.string(), configuredAt: z.string(), botUsername: z.string() })
  .register(z.globalRegistry, { id: 'ConfigureTelegramWebhookResponse' });

export const mobileLinkBody = z.object({ subscriberId: z.optional(externalIdSchema('subscriberId')) });

export const mobileLinkResponse = z
  .object({ token: z.string(), url: z.string(), expiresAt: z.string() })
  .register(z.globalRegistry, { id: 'IssueTelegramMobileLinkResponse' });

export const telegramUpdateParams = z.object({
  environmentId: z.string().check(z.minLength(1), z.maxLength(64)),
  integrationId: z.string().check(z.minLength(1), z.maxLength(64)),
});

/** The part of a Telegram Update the link reads; the rest is ignored. */
export const telegramUpdateBody = z.object({
  update_id: z.optional(z.number()),
  message: z.optional(
    z.object({
      text: z.optional(z.string().check(z.maxLength(4096))),
      chat: z.optional(z.object({ id: z.union([z.number(), z.string().check(z.maxLength(64))]) })),
    }),
  ),
});

export const telegramUpdateResponse = z.object({ ok: z.literal(true), linked: z.optional(z.string()) });
