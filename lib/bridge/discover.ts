import * as z from '../zod.ts';

// What a bridge's `GET ?action=discover` answers (@novu/framework 2.x DiscoverOutput), read
// leniently: only what a sync stores is checked, every other key is let through and not kept.

const jsonSchema = z.record(z.string(), z.unknown());
const schemaHolder = z.optional(z.object({ schema: z.optional(jsonSchema) }));

const discoveredStep = z.object({
  stepId: z.string().check(z.minLength(1), z.maxLength(256)),
  type: z.string(),
  controls: schemaHolder,
  outputs: schemaHolder,
  results: schemaHolder,
  options: z.optional(z.record(z.string(), z.unknown())),
});

const channelPreference = z.object({ enabled: z.optional(z.boolean()), readOnly: z.optional(z.boolean()) });

const discoveredWorkflow = z.object({
  workflowId: z.string().check(z.minLength(1), z.maxLength(256)),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  severity: z.optional(z.enum(['high', 'medium', 'low', 'none'])),
  active: z.optional(z.boolean()),
  preferences: z.optional(
    z.object({
      all: z.optional(channelPreference),
      channels: z.optional(z.record(z.string(), channelPreference)),
    }),
  ),
  payload: schemaHolder,
  controls: schemaHolder,
  steps: z.array(discoveredStep),
});

export const discoverOutput = z.object({ workflows: z.array(discoveredWorkflow) });

export type DiscoverOutput = z.infer<typeof discoverOutput>;
export type DiscoveredWorkflow = z.infer<typeof discoveredWorkflow>;
export type DiscoveredStep = z.infer<typeof discoveredStep>;
