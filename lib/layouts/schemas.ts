import * as z from '../zod.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';

// Shapes of layouts (the reference's `/v2/layouts` DTOs), of the requests that change them and of
// their list. Unknown body fields are ignored (zod strips them), as the reference does. What the
// content must hold (a whole HTML document or an editor document, with the `content` slot) is
// checked by content.ts, after the shape.

/** The reference's MAX_NAME_LENGTH. */
const name = z.string({ error: 'name is required' }).check(z.minLength(1, 'name must not be empty'), z.maxLength(128));

export const EDITOR_TYPES = ['html', 'block'] as const;

const emailControls = z.object({
  body: z.string({ error: 'body is required' }),
  editorType: z.enum(EDITOR_TYPES, { error: 'editorType must be html or block' }),
});
export const layoutControlValues = z.object({ email: z.optional(emailControls) });
export type LayoutControlValues = z.infer<typeof layoutControlValues>;
export type LayoutEmailControls = z.infer<typeof emailControls>;

/**
 * Create. `controlValues` is ours: the reference's create always starts from an empty block
 * document and content comes with a PUT; here it may come with the create as well.
 */
export const createLayoutBody = z.object({
  layoutId: z.optional(externalIdSchema('layoutId')),
  name,
  isTranslationEnabled: z.optional(z.boolean()),
  controlValues: z.optional(z.nullable(layoutControlValues)),
});
export type CreateLayoutInput = z.infer<typeof createLayoutBody>;

/** Update: `controlValues` omitted = unchanged, null = removed, an object replaces them. */
export const updateLayoutBody = z.object({
  name,
  isTranslationEnabled: z.optional(z.boolean()),
  controlValues: z.optional(z.nullable(layoutControlValues)),
});
export type UpdateLayoutInput = z.infer<typeof updateLayoutBody>;

/** Duplicate: the copy's identifier defaults to the slugified name. */
export const duplicateLayoutBody = z.object({
  name,
  layoutId: z.optional(externalIdSchema('layoutId')),
  isTranslationEnabled: z.optional(z.boolean()),
});
export type DuplicateLayoutInput = z.infer<typeof duplicateLayoutBody>;

/** The path names a layout by identifier, database id or slug; only bounded here. */
export const layoutParams = z.object({ layoutId: z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)) });

export const listLayoutsQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  orderDirection: z._default(z.enum(['ASC', 'DESC']), 'DESC'),
  orderBy: z._default(z.enum(['createdAt', 'updatedAt', 'name']), 'createdAt'),
  query: z.optional(z.string().check(z.maxLength(256))),
});
export type ListLayoutsQuery = z.infer<typeof listLayoutsQuery>;

// ---- responses -------------------------------------------------------------------------------

const user = z.object({
  _id: z.string(),
  firstName: z.optional(z.nullable(z.string())),
  lastName: z.optional(z.nullable(z.string())),
  externalId: z.optional(z.nullable(z.string())),
});

export const layoutResponseSchema = z
  .object({
    _id: z.string(),
    layoutId: z.string(),
    slug: z.string(),
    name: z.string(),
    isDefault: z.boolean(),
    isTranslationEnabled: z.boolean(),
    updatedAt: z.string(),
    updatedBy: z.optional(z.nullable(user)),
    createdAt: z.string(),
    origin: z.enum(['svc-cloud']),
    type: z.enum(['BRIDGE']),
    variables: z.optional(z.record(z.string(), z.unknown())),
    controls: z.object({
      dataSchema: z.optional(z.record(z.string(), z.unknown())),
      uiSchema: z.optional(z.record(z.string(), z.unknown())),
      values: z.object({ email: z.optional(emailControls) }),
    }),
  })
  .register(z.globalRegistry, { id: 'Layout' });
export type LayoutResponse = z.infer<typeof layoutResponseSchema>;

export const layoutListSchema = z
  .object({ layouts: z.array(layoutResponseSchema), totalCount: z.number() })
  .register(z.globalRegistry, { id: 'LayoutList' });
export type LayoutList = z.infer<typeof layoutListSchema>;

export const layoutUsageSchema = z
  .object({ workflows: z.array(z.object({ name: z.string(), workflowId: z.string() })) })
  .register(z.globalRegistry, { id: 'LayoutUsage' });
export type LayoutUsage = z.infer<typeof layoutUsageSchema>;

/** Preview: `controlValues` stand in for the stored ones; the subscriber's values for the example's. */
export const previewLayoutBody = z.object({
  controlValues: z.optional(layoutControlValues),
  previewPayload: z.optional(
    z.object({ subscriber: z.optional(z.record(z.string(), z.unknown(), { error: 'subscriber must be an object' })) }),
  ),
});
export type PreviewLayoutInput = z.infer<typeof previewLayoutBody>;

export const layoutPreviewSchema = z
  .object({
    result: z.object({ type: z.enum(['email']), preview: z.optional(z.object({ body: z.string() })) }),
    previewPayloadExample: z.object({ subscriber: z.optional(z.record(z.string(), z.unknown())) }),
    schema: z.nullable(z.record(z.string(), z.unknown())),
  })
  .register(z.globalRegistry, { id: 'LayoutPreview' });
export type LayoutPreview = z.infer<typeof layoutPreviewSchema>;
