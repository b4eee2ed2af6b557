import * as z from '../zod.ts';

// The reference's environment promotion (`/v2/environments/{targetEnvironmentId}/diff` and
// `/publish`): what changes in the target if the source's workflows are published there, and the
// publish itself. Resource types are named as `@novu/api` 3.19.1's closed `ResourceTypeEnum`
// has them (`REGULAR`, `ECHO`, `BRIDGE`: the reference's workflow types), so its client parses the
// answers; a workflow is `REGULAR` (docs/differences.md, "Environment promotion").

/** The resource type every answer names: a workflow made in the editor or by API. */
export const WORKFLOW_RESOURCE_TYPE = 'REGULAR' as const;
const resourceType = z.enum(['REGULAR', 'ECHO', 'BRIDGE']);

/** What a request may name: the client's types, and the reference's own words for them. */
export const REQUESTABLE_RESOURCE_TYPES = ['REGULAR', 'ECHO', 'BRIDGE', 'workflow', 'step', 'layout', 'localization_group'] as const;
export const WORKFLOW_LIKE_TYPES: ReadonlySet<string> = new Set(['REGULAR', 'ECHO', 'BRIDGE', 'workflow']);

const environmentId = z.string().check(z.regex(/^[0-9a-f]{24}$/, 'must be an environment id (24 hex characters)'));

export const promotionParams = z.object({ targetEnvironmentId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const diffEnvironmentBody = z._default(z.object({ sourceEnvironmentId: z.optional(environmentId) }), {});
export type DiffEnvironmentInput = z.infer<typeof diffEnvironmentBody>;

export const publishEnvironmentBody = z._default(
  z.object({
    sourceEnvironmentId: z.optional(environmentId),
    dryRun: z._default(z.boolean(), false),
    resources: z.optional(
      z
        .array(
          z.object({
            resourceType: z.enum(REQUESTABLE_RESOURCE_TYPES),
            resourceId: z.string().check(z.minLength(1), z.maxLength(256)),
          }),
        )
        .check(z.maxLength(500)),
    ),
  }),
  { dryRun: false },
);
export type PublishEnvironmentInput = z.infer<typeof publishEnvironmentBody>;

const resourceInfo = z.object({
  id: z.nullable(z.string()),
  name: z.nullable(z.string()),
  updatedAt: z.optional(z.nullable(z.string())),
});
const diffAction = z.enum(['added', 'modified', 'deleted', 'unchanged', 'moved']);
const diffCounts = z.object({ added: z.number(), modified: z.number(), deleted: z.number(), unchanged: z.number() });

export const resourceChangeSchema = z.object({
  sourceResource: z.optional(z.nullable(resourceInfo)),
  targetResource: z.optional(z.nullable(resourceInfo)),
  resourceType,
  action: diffAction,
  diffs: z.optional(
    z.object({ previous: z.nullable(z.record(z.string(), z.unknown())), new: z.nullable(z.record(z.string(), z.unknown())) }),
  ),
  stepType: z.optional(z.string()),
  previousIndex: z.optional(z.number()),
  newIndex: z.optional(z.number()),
});
export type ResourceChange = z.infer<typeof resourceChangeSchema>;

export const resourceDiffSchema = z.object({
  resourceType,
  sourceResource: z.optional(z.nullable(resourceInfo)),
  targetResource: z.optional(z.nullable(resourceInfo)),
  changes: z.array(resourceChangeSchema),
  summary: diffCounts,
});
export type ResourceDiff = z.infer<typeof resourceDiffSchema>;

export const environmentDiffSchema = z
  .object({
    sourceEnvironmentId: z.string(),
    targetEnvironmentId: z.string(),
    resources: z.array(resourceDiffSchema),
    summary: z.object({ totalEntities: z.number(), totalChanges: z.number(), hasChanges: z.boolean() }),
  })
  .register(z.globalRegistry, { id: 'EnvironmentDiff' });
export type EnvironmentDiff = z.infer<typeof environmentDiffSchema>;

const entity = { resourceType, resourceId: z.string(), resourceName: z.string() };
export const publishResultSchema = z
  .object({
    results: z.array(
      z.object({
        resourceType,
        successful: z.array(z.object({ ...entity, action: z.enum(['created', 'updated', 'skipped', 'deleted']) })),
        failed: z.array(z.object({ ...entity, error: z.string() })),
        skipped: z.array(z.object({ ...entity, reason: z.string() })),
        totalProcessed: z.number(),
      }),
    ),
    summary: z.object({ resources: z.number(), successful: z.number(), failed: z.number(), skipped: z.number() }),
  })
  .register(z.globalRegistry, { id: 'EnvironmentPublishResult' });
export type PublishResult = z.infer<typeof publishResultSchema>;

export const environmentTagsSchema = z.array(z.object({ name: z.string() }).register(z.globalRegistry, { id: 'EnvironmentTag' }));
