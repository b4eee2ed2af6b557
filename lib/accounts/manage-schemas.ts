import * as z from '../zod.ts';
import { trackingPatchSchema } from './tracking-settings.ts';

// Requests that make, change and delete an environment (the reference's `/v1/environments`
// create, `PUT`/`DELETE /v1/environments/{environmentId}`). Their answers are the list's
// `Environment` (lib/accounts/schemas.ts).

const name = z
  .string({ error: 'name is required' })
  .check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(64, 'name must be at most 64 characters'));
const HEX_COLOR = z.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'color must be a hex color code such as #ff8547');
const environmentId = z.string().check(z.regex(/^[0-9a-f]{24}$/, 'must be an environment id (24 hex characters)'));

export const createEnvironmentBody = z.object({
  name,
  parentId: z.optional(environmentId),
  color: z.string({ error: 'color is required' }).check(HEX_COLOR),
});
export type CreateEnvironmentInput = z.infer<typeof createEnvironmentBody>;

export const updateEnvironmentBody = z.object({
  name: z.optional(name),
  /** The application identifier: public, unique across the stage. */
  identifier: z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9_-]{4,64}$/, 'identifier must be 4 to 64 letters, digits, dashes or underscores')),
  ),
  parentId: z.optional(environmentId),
  color: z.optional(z.string().check(HEX_COLOR)),
  dns: z.optional(z.object({ inboundParseDomain: z.optional(z.string().check(z.maxLength(253))) })),
  bridge: z.optional(z.object({ url: z.optional(z.string().check(z.maxLength(2048))) })),
  /** Ours: link and open tracking per channel (docs/engagement.md); what is left out keeps its value. */
  tracking: z.optional(trackingPatchSchema),
});
export type UpdateEnvironmentInput = z.infer<typeof updateEnvironmentBody>;

export const environmentParams = z.object({ environmentId: z.string().check(z.minLength(1), z.maxLength(64)) });
