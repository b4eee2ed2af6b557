import type { Channel } from '../integrations/catalogue.ts';
import * as z from '../zod.ts';

// Link and open tracking, per environment (docs/engagement.md; lib/tracking applies them). Kept on the environment's item
// as `tracking` and changed through PUT /v1/environments/{environmentId}. What an environment
// never set takes the defaults: links tracked in email only (in-app action URLs, chat and sms
// are opt-in), opens never (a pixel is a privacy trade-off the customer chooses).

export const LINK_CHANNELS = ['email', 'in_app', 'chat', 'sms'] as const satisfies readonly Channel[];
export type LinkChannel = (typeof LINK_CHANNELS)[number];

export interface TrackingSettings {
  links: Record<LinkChannel, boolean>;
  opens: { email: boolean };
}

export const DEFAULT_TRACKING: TrackingSettings = {
  links: { email: true, in_app: false, chat: false, sms: false },
  opens: { email: false },
};

/** What an update may send: any subset; what it leaves out keeps its value. */
export const trackingPatchSchema = z.object({
  links: z.optional(
    z.object({
      email: z.optional(z.boolean()),
      in_app: z.optional(z.boolean()),
      chat: z.optional(z.boolean()),
      sms: z.optional(z.boolean()),
    }),
  ),
  opens: z.optional(z.object({ email: z.optional(z.boolean()) })),
});
export type TrackingPatch = z.infer<typeof trackingPatchSchema>;

export const trackingSchema = z
  .object({
    links: z.object({ email: z.boolean(), in_app: z.boolean(), chat: z.boolean(), sms: z.boolean() }),
    opens: z.object({ email: z.boolean() }),
  })
  .register(z.globalRegistry, { id: 'TrackingSettings' });

/** The settings an environment's stored `tracking` (possibly absent or partial) means. */
export function trackingOf(stored: unknown): TrackingSettings {
  const parsed = trackingPatchSchema.safeParse(stored ?? {});
  return applyTracking(DEFAULT_TRACKING, parsed.success ? parsed.data : {});
}

/** `current` with the patch's values over it. */
export function applyTracking(current: TrackingSettings, patch: TrackingPatch): TrackingSettings {
  const links = { ...current.links };
  for (const channel of LINK_CHANNELS) {
    const value = patch.links?.[channel];
    if (value !== undefined) links[channel] = value;
  }
  return { links, opens: { email: patch.opens?.email ?? current.opens.email } };
}
