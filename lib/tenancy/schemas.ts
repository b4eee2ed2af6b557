import * as z from '../zod.ts';

// What an API key's caller sees of its own environment (GET /v1/environments/me, `@novu/node`
// 2.x `environments.getCurrent`): never its API keys, which the reference leaves out of this
// answer too (and which are kept here only as hashes and sealed copies).

export const currentEnvironmentSchema = z
  .object({ _id: z.string(), name: z.string(), _organizationId: z.string(), identifier: z.string(), createdAt: z.string() })
  .register(z.globalRegistry, { id: 'CurrentEnvironment' });
export type CurrentEnvironment = z.infer<typeof currentEnvironmentSchema>;
