import * as z from '../zod.ts';
import { apiKeySchema } from './api-key-schemas.ts';
import { trackingSchema } from './tracking-settings.ts';

// What an API key's caller sees of its own environment (GET /v1/environments/me, `@novu/node`
// 2.x `environments.getCurrent`): never its API keys, which the reference leaves out of this
// answer too (and which are kept here only as hashes and sealed copies).

export const currentEnvironmentSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    _organizationId: z.string(),
    identifier: z.string(),
    /** The bridge URL of its code-first workflows, once `npx novu sync` has set it (docs/code-first.md). */
    bridge: z.optional(z.object({ url: z.string() })),
    echo: z.optional(z.object({ url: z.string() })),
    createdAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'CurrentEnvironment' });
export type CurrentEnvironment = z.infer<typeof currentEnvironmentSchema>;

// GET /v1/environments: every environment of the caller's organization, in the reference's
// `EnvironmentResponseDto` shape. `identifier` is the application identifier `<Inbox />` takes;
// `apiKeys` (masked) are the caller's own environment's only, every other one's list is empty,
// as the reference's answer to an API key.
export const environmentSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    _organizationId: z.string(),
    identifier: z.string(),
    /** `prod` for Production, else `dev`. */
    type: z.enum(['dev', 'prod']),
    /** Production's parent is Development. */
    _parentId: z.optional(z.string()),
    apiKeys: z.array(apiKeySchema),
    /** Ours: link and open tracking per channel, defaults filled in (docs/engagement.md). */
    tracking: trackingSchema,
    createdAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Environment' });
export type EnvironmentView = z.infer<typeof environmentSchema>;

export const environmentListSchema = z.array(environmentSchema);
